import type { Db } from '../knex';
import { foldRegionGaps, REGION_SERIES_DAYS } from './analyticsRollupRegions';

/**
 * The distinct-player part of a rollup batch (docs/analytics.md "Distinct players"): each player's days per series
 * (`''`: any counted event, any currency; a currency code: a completed deposit in it; {@link PLAYED} and a currency
 * code: a game round in it; {@link roundSeries}: a round of a game or provider in a currency; the splits' two series
 * per currency group, analyticsRollupRegions.ts) form a chain, each day
 * with the player's previous day; `analytics_player_gaps` counts the chain's rows per (series, day, previous day). A
 * late day landing between two known ones changes its successor's previous day, so that successor's pair moves too.
 */

/**
 * The prefix of a played series: 19 characters, so no currency (at most 16, `ANALYTICS_KEY_LIMITS`) can ever name the
 * same series as the prefix and another currency do.
 */
export const PLAYED = 'played-in-currency:';
/** The played series of a currency expression (SQL). */
export const playedSeries = (currency: string): string => `'${PLAYED}' || ${currency}`;

/**
 * The series of a game's or provider's players in a currency (SQL expressions; a null provider: the rounds naming
 * none). The currency goes with its length, so no currency and name can spell another pair's series; the prefixes are
 * longer than any currency.
 */
export const roundSeries = (by: 'game' | 'provider', currency: string, name: string): string =>
  `'${by}-in-currency:' || length(${currency}) || ':' || ${currency} || coalesce(':' || ${name}, '')`;

/** The batch's player-days not yet in a chain (`analytics_batch` of analyticsRollupBatch.ts). */
const NEW_DAYS = `WITH days AS (
    SELECT operator_id, entity_id, '' AS series, day FROM analytics_batch WHERE counted
    UNION
    SELECT operator_id, entity_id, currency, day FROM analytics_batch WHERE counted AND is_deposit
    UNION
    SELECT operator_id, entity_id, ${playedSeries('currency')}, day FROM analytics_batch WHERE counted AND is_game
    UNION
    SELECT operator_id, entity_id, ${roundSeries('game', 'currency', 'game_name')}, day FROM analytics_batch WHERE counted AND is_game AND game_name IS NOT NULL
    UNION
    SELECT operator_id, entity_id, ${roundSeries('provider', 'currency', 'round_provider')}, day FROM analytics_batch WHERE counted AND is_game
    UNION
    ${REGION_SERIES_DAYS}
  ), added AS (
    INSERT INTO analytics_player_chain (operator_id, entity_id, series, day, prev_day)
    SELECT operator_id, entity_id, series, day, '-infinity' FROM days
    ON CONFLICT DO NOTHING RETURNING operator_id, entity_id, series, day
  )
  INSERT INTO analytics_chain_new SELECT * FROM added`;

const SAME_CHAIN = (alias: string, row: string) =>
  `${alias}.operator_id = ${row}.operator_id AND ${alias}.entity_id = ${row}.entity_id AND ${alias}.series = ${row}.series`;

/**
 * The rows whose previous day is new: every new day (`old_prev` null: it had no pair yet), and the next known day after
 * a new one, with the previous day it had. Two new days never share that next known day (the later one is the earlier
 * one's next day), so no row is listed twice. `new_prev` is read after the new days went in, so it sees them all,
 * however many a player got in this batch. No join on the chain table: its statistics lag a fast-growing table, and a
 * misestimated join here once ran for minutes; every lookup is a probe of its primary key.
 */
const MOVED = `CREATE TEMP TABLE analytics_chain_moved ON COMMIT DROP AS
  SELECT m.operator_id, m.entity_id, m.series, m.day, m.old_prev,
         coalesce((SELECT max(p.day) FROM analytics_player_chain p WHERE ${SAME_CHAIN('p', 'm')} AND p.day < m.day), '-infinity') AS new_prev
    FROM (
      SELECT operator_id, entity_id, series, day, NULL::date AS old_prev FROM analytics_chain_new
      UNION ALL
      SELECT n.operator_id, n.entity_id, n.series, next.day, next.prev_day FROM analytics_chain_new n
        CROSS JOIN LATERAL (SELECT c.day, c.prev_day FROM analytics_player_chain c WHERE ${SAME_CHAIN('c', 'n')} AND c.day > n.day ORDER BY c.day LIMIT 1) next
       WHERE NOT EXISTS (SELECT 1 FROM analytics_chain_new f WHERE ${SAME_CHAIN('f', 'n')} AND f.day = next.day)
    ) m`;

const GAPS = `INSERT INTO analytics_player_gaps AS t (operator_id, series, day, prev_day, players)
  SELECT operator_id, series, day, prev_day, sum(delta) FROM (
    SELECT operator_id, series, day, new_prev AS prev_day, 1 AS delta FROM analytics_chain_moved
    UNION ALL
    SELECT operator_id, series, day, old_prev, -1 FROM analytics_chain_moved WHERE old_prev IS NOT NULL
  ) d GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
  ON CONFLICT (operator_id, series, day, prev_day) DO UPDATE SET players = t.players + excluded.players`;

const RELINK = `UPDATE analytics_player_chain c SET prev_day = m.new_prev FROM analytics_chain_moved m
  WHERE ${SAME_CHAIN('c', 'm')} AND c.day = m.day AND c.prev_day <> m.new_prev`;

/**
 * Runs one statement that updates rows of a large rollup table by a primary-key probe per row of a small temp table.
 * Left to itself the planner hashes the whole large table whenever a batch touches many rows (a sequential scan per
 * batch, growing with history; its statistics also lag a fast-growing table); join methods other than the nested loop
 * are off for this one statement and restored after it, so a pass costs what arrived.
 */
export async function withNestedLoops(trx: Db, statement: string): Promise<void> {
  const saved = await trx.raw(`SELECT current_setting('enable_hashjoin') AS hash, current_setting('enable_mergejoin') AS merge`);
  const { hash, merge } = saved.rows[0] as { hash: string; merge: string };
  await trx.raw(`SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)`);
  await trx.raw(statement);
  await trx.raw(`SELECT set_config('enable_hashjoin', :hash, true), set_config('enable_mergejoin', :merge, true)`, { hash, merge });
}

/** Folds the batch's player-days into the chains and their counts; inside the batch's transaction. */
export async function foldDistinct(trx: Db): Promise<void> {
  await trx.raw(
    'CREATE TEMP TABLE analytics_chain_new (operator_id uuid, entity_id text, series text, day date, PRIMARY KEY (operator_id, entity_id, series, day)) ON COMMIT DROP',
  );
  await trx.raw(NEW_DAYS);
  await trx.raw('ANALYZE analytics_chain_new');
  await trx.raw(MOVED);
  await trx.raw('ANALYZE analytics_chain_moved');
  await trx.raw(GAPS);
  await foldRegionGaps(trx);
  await withNestedLoops(trx, RELINK);
  await trx.raw('DROP TABLE analytics_chain_moved, analytics_chain_new');
}

/**
 * Takes erased players' chains out (binding `erased`, the JSON list of analyticsRollupBatch.ts): a whole chain goes,
 * so no other player's pair moves, and its pairs are subtracted from the counts.
 */
export async function subtractErasedDistinct(trx: Db, withErased: string, bindings: Record<string, string>): Promise<void> {
  await trx.raw(
    `${withErased}, gone AS (DELETE FROM analytics_player_chain WHERE (operator_id, entity_id) IN (SELECT operator_id, entity_id FROM erased) RETURNING *),
       sums AS (SELECT operator_id, series, day, prev_day, count(*) AS players FROM gone GROUP BY 1, 2, 3, 4)
     UPDATE analytics_player_gaps t SET players = t.players - s.players
       FROM sums s WHERE t.operator_id = s.operator_id AND t.series = s.series AND t.day = s.day AND t.prev_day = s.prev_day`,
    bindings,
  );
}
