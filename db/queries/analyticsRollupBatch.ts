import type { Db } from '../knex';
import { subtractErasedCohorts } from './analyticsRollupCohorts';
import { foldDistinct, subtractErasedDistinct } from './analyticsRollupDistinct';
import { foldFirstDeposits, subtractErasedFirstDeposits } from './analyticsRollupFirstDeposits';
import { foldJurisdictions, subtractErasedJurisdictions } from './analyticsRollupJurisdictions';
import { foldRegionDays } from './analyticsRollupRegions';
import { GAME_DAYS, GAME_HEALTH_DAYS } from './analyticsRollupGameHealth';
import { foldTransactions, subtractErasedTransactions } from './analyticsRollupTransactions';

/** What one batch read: where the cursor now stands, and how many event rows it covered. */
export interface BatchResult {
  events: number;
  cursor: { xid: string; id: string };
}

const num = (field: string): string => `CASE WHEN jsonb_typeof(e.data->'${field}') = 'number' THEN (e.data->>'${field}')::numeric ELSE 0 END`;
const completed = (type: string): string =>
  `e.event_type = 'transaction' AND e.data->>'type' = '${type}' AND coalesce(e.data->>'status', 'completed') = 'completed'`;

/**
 * The next rows after the cursor whose transaction ended before `bound`, in `(xid, id)` order, with what the rollups
 * need of each. `counted` is false for events of erased, non-player or unknown entities and for redacted events (the
 * views' and raw path's rule): they move the cursor and count nowhere. The currency is resolved now, with the
 * operator's reporting currency of this moment (as a view refresh did).
 */
const BATCH = `CREATE TEMP TABLE analytics_batch ON COMMIT DROP AS
  SELECT e.xid, e.id, e.operator_id, e.entity_id, e.occurred_at, e.created_at, (e.occurred_at AT TIME ZONE 'UTC')::date AS day,
         coalesce(nullif(e.data->>'currency', ''), trim(s.reporting_currency), 'EUR') AS currency,
         (en.id IS NOT NULL AND e.data->'_redacted' IS NULL) AS counted,
         e.event_type = 'game_activity' AS is_game,
         CASE WHEN e.event_type = 'game_activity' THEN ${num('bet_amount')} ELSE 0 END AS bet,
         CASE WHEN e.event_type = 'game_activity' THEN ${num('win_amount')} ELSE 0 END AS win,
         ${completed('deposit')} AS is_deposit,
         CASE WHEN ${completed('deposit')} THEN ${num('amount')} ELSE 0 END AS deposit,
         CASE WHEN ${completed('withdrawal')} THEN ${num('amount')} ELSE 0 END AS withdrawal,
         ${completed('bonus')} AS is_bonus,
         CASE WHEN ${completed('bonus')} THEN ${num('amount')} ELSE 0 END AS bonus,
         CASE WHEN e.event_type = 'game_activity' THEN coalesce(e.data->>'game_name', e.data->>'game_id') END AS game_name,
         CASE WHEN e.event_type = 'transaction' THEN e.data->>'provider' END AS provider,
         CASE WHEN e.event_type = 'game_activity' THEN e.data->>'provider' END AS round_provider,
         CASE WHEN e.event_type = 'game_activity' THEN ${num('bonus_bet_amount')} ELSE 0 END AS bonus_bet,
         CASE WHEN e.event_type = 'game_activity' THEN ${num('bonus_win_amount')} ELSE 0 END AS bonus_win,
         ${num('amount')} AS amount,
         coalesce(e.data->>'status', 'completed') = 'completed' AS is_completed,
         CASE WHEN e.event_type = 'transaction' THEN coalesce(e.data->>'id', e.id::text) END AS tx_key,
         e.data->>'type' AS tx_type, coalesce(e.data->>'status', 'completed') AS tx_status
    FROM (SELECT coalesce(ev.ingest_xid, 0) AS xid, ev.* FROM entity_events ev
           WHERE (coalesce(ev.ingest_xid, 0), ev.id) > (CAST(:cursorXid AS bigint), CAST(:cursorId AS text))
             AND coalesce(ev.ingest_xid, 0) < CAST(:bound AS bigint)
           ORDER BY coalesce(ev.ingest_xid, 0), ev.id LIMIT :limit) e
    LEFT JOIN entities en ON en.id = e.entity_id AND en.operator_id = e.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
    LEFT JOIN operator_settings s ON s.operator_id = e.operator_id`;

const DAILY = `INSERT INTO analytics_daily AS t (operator_id, day, currency, ggr, deposits, withdrawals)
  SELECT operator_id, day, currency, sum(bet - win), sum(deposit), sum(withdrawal) FROM analytics_batch WHERE counted GROUP BY 1, 2, 3
  ON CONFLICT (operator_id, day, currency) DO UPDATE
    SET ggr = t.ggr + excluded.ggr, deposits = t.deposits + excluded.deposits, withdrawals = t.withdrawals + excluded.withdrawals`;

/**
 * `played` (a game round that day) beside `deposited`: a cohort's activity is either (analyticsCohortsView.ts);
 * `bonused` and `bonus` (completed bonuses): NGR's bonus cost (analyticsNgr.ts).
 */
const PLAYER_DAYS = `INSERT INTO analytics_player_days AS t
    (operator_id, day, entity_id, currency, deposited, played, bonused, ggr, deposits, withdrawals, bonus)
  SELECT operator_id, day, entity_id, currency, bool_or(is_deposit), bool_or(is_game), bool_or(is_bonus), sum(bet - win), sum(deposit),
         sum(withdrawal), sum(bonus)
    FROM analytics_batch WHERE counted GROUP BY 1, 2, 3, 4
  ON CONFLICT (operator_id, day, entity_id, currency) DO UPDATE
    SET deposited = t.deposited OR excluded.deposited, played = t.played OR excluded.played, bonused = t.bonused OR excluded.bonused,
        ggr = t.ggr + excluded.ggr, deposits = t.deposits + excluded.deposits, withdrawals = t.withdrawals + excluded.withdrawals,
        bonus = t.bonus + excluded.bonus`;

/** Player rows first; a row that did not exist yet (`xmax = 0`) is a new unique player of the game. */
const GAMES = `WITH players AS (
    INSERT INTO analytics_game_players AS t (operator_id, entity_id, currency, game_name, rounds, bets, wins)
    SELECT operator_id, entity_id, currency, game_name, count(*), sum(bet), sum(win)
      FROM analytics_batch WHERE counted AND is_game AND game_name IS NOT NULL GROUP BY 1, 2, 3, 4
    ON CONFLICT (operator_id, entity_id, currency, game_name) DO UPDATE
      SET rounds = t.rounds + excluded.rounds, bets = t.bets + excluded.bets, wins = t.wins + excluded.wins
    RETURNING operator_id, currency, game_name, (xmax = 0) AS fresh
  ), fresh AS (
    SELECT operator_id, currency, game_name, count(*) FILTER (WHERE fresh) AS new_players FROM players GROUP BY 1, 2, 3
  ), sums AS (
    SELECT operator_id, currency, game_name, count(*) AS rounds, sum(bet) AS bets, sum(win) AS wins
      FROM analytics_batch WHERE counted AND is_game AND game_name IS NOT NULL GROUP BY 1, 2, 3
  )
  INSERT INTO analytics_games AS t (operator_id, currency, game_name, rounds, bets, wins, unique_players)
  SELECT s.operator_id, s.currency, s.game_name, s.rounds, s.bets, s.wins, f.new_players
    FROM sums s JOIN fresh f USING (operator_id, currency, game_name)
  ON CONFLICT (operator_id, currency, game_name) DO UPDATE
    SET rounds = t.rounds + excluded.rounds, bets = t.bets + excluded.bets, wins = t.wins + excluded.wins,
        unique_players = t.unique_players + excluded.unique_players`;

const PROVIDER_SUMS = `count(*), sum(amount), count(*) FILTER (WHERE is_completed), sum(deposit), sum(withdrawal)`;
const PROVIDER_MERGE = `SET volume = t.volume + excluded.volume, total_amount = t.total_amount + excluded.total_amount,
  completed = t.completed + excluded.completed, deposits = t.deposits + excluded.deposits, withdrawals = t.withdrawals + excluded.withdrawals`;
const PROVIDERS = `INSERT INTO analytics_providers AS t (operator_id, currency, provider, volume, total_amount, completed, deposits, withdrawals)
  SELECT operator_id, currency, provider, ${PROVIDER_SUMS} FROM analytics_batch WHERE counted AND provider IS NOT NULL GROUP BY 1, 2, 3
  ON CONFLICT (operator_id, currency, provider) DO UPDATE ${PROVIDER_MERGE}`;
const PROVIDER_PLAYERS = `INSERT INTO analytics_provider_players AS t (operator_id, entity_id, currency, provider, volume, total_amount, completed, deposits, withdrawals)
  SELECT operator_id, entity_id, currency, provider, ${PROVIDER_SUMS} FROM analytics_batch WHERE counted AND provider IS NOT NULL GROUP BY 1, 2, 3, 4
  ON CONFLICT (operator_id, entity_id, currency, provider) DO UPDATE ${PROVIDER_MERGE}`;

/**
 * Folds the next at most `limit` events after `cursor` (transactions ended before `bound`) into every rollup. Runs
 * inside the caller's transaction, which also moves the cursor: the figures and the watermark commit together.
 */
export async function foldBatch(trx: Db, cursor: { xid: string; id: string }, bound: string, limit: number): Promise<BatchResult> {
  await trx.raw(BATCH, { cursorXid: cursor.xid, cursorId: cursor.id, bound, limit });
  // Ordered by the bigint column, not the text it is returned as: as text, '995' sorts after '1598', and a batch
  // spanning both left its cursor mid-batch, so the next one counted the rest again.
  const last = await trx.raw(
    `SELECT b.xid::text AS last_xid, b.id AS last_id, (SELECT count(*) FROM analytics_batch) AS events
       FROM analytics_batch b ORDER BY b.xid DESC, b.id DESC LIMIT 1`,
  );
  const row = last.rows[0] as { last_xid: string; last_id: string; events: string } | undefined;
  if (!row) {
    await trx.raw('DROP TABLE analytics_batch');
    return { events: 0, cursor };
  }
  const end = { xid: row.last_xid, id: row.last_id };
  await foldJurisdictions(trx);
  await foldRegionDays(trx);
  for (const statement of [DAILY, PLAYER_DAYS, GAMES, PROVIDERS, PROVIDER_PLAYERS, GAME_DAYS, GAME_HEALTH_DAYS]) await trx.raw(statement);
  await foldTransactions(trx);
  await foldDistinct(trx);
  await foldFirstDeposits(trx, end);
  await trx.raw('DROP TABLE analytics_batch');
  return { events: Number(row.events), cursor: end };
}

/**
 * Takes erased players out of every rollup, as a view refresh did: their events are redacted in place, so what they
 * added is subtracted from their own per-player rows, which then go. Each player is handled once (recorded in
 * `analytics_rollup_erased`); events of theirs read later are not counted (`counted` above).
 */
export async function subtractErased(trx: Db): Promise<number> {
  const erased = await trx.raw(
    `INSERT INTO analytics_rollup_erased (operator_id, entity_id)
     SELECT en.operator_id, en.id FROM entities en
      WHERE en.deleted_at IS NOT NULL AND en.entity_type = 'player'
        AND NOT EXISTS (SELECT 1 FROM analytics_rollup_erased r WHERE r.operator_id = en.operator_id AND r.entity_id = en.id)
     ON CONFLICT DO NOTHING RETURNING operator_id, entity_id`,
  );
  if (erased.rows.length === 0) return 0;
  const players = `(operator_id, entity_id) IN (SELECT operator_id, entity_id FROM erased)`;
  const withErased = `WITH erased AS (SELECT * FROM jsonb_to_recordset(CAST(:erased AS jsonb)) AS x(operator_id uuid, entity_id text))`;
  const bindings = { erased: JSON.stringify(erased.rows) };
  await subtractErasedCohorts(trx, withErased, bindings);
  await subtractErasedJurisdictions(trx, withErased, bindings);
  await trx.raw(
    `${withErased}, gone AS (DELETE FROM analytics_player_days WHERE ${players} RETURNING *),
       sums AS (SELECT operator_id, day, currency, sum(ggr) AS ggr, sum(deposits) AS deposits, sum(withdrawals) AS withdrawals FROM gone GROUP BY 1, 2, 3)
     UPDATE analytics_daily t SET ggr = t.ggr - s.ggr, deposits = t.deposits - s.deposits, withdrawals = t.withdrawals - s.withdrawals
       FROM sums s WHERE t.operator_id = s.operator_id AND t.day = s.day AND t.currency = s.currency`,
    bindings,
  );
  await trx.raw(
    `${withErased}, gone AS (DELETE FROM analytics_game_players WHERE ${players} RETURNING *),
       sums AS (SELECT operator_id, currency, game_name, sum(rounds) AS rounds, sum(bets) AS bets, sum(wins) AS wins, count(*) AS players FROM gone GROUP BY 1, 2, 3)
     UPDATE analytics_games t SET rounds = t.rounds - s.rounds, bets = t.bets - s.bets, wins = t.wins - s.wins, unique_players = t.unique_players - s.players
       FROM sums s WHERE t.operator_id = s.operator_id AND t.currency = s.currency AND t.game_name = s.game_name`,
    bindings,
  );
  await trx.raw(
    `${withErased}, gone AS (DELETE FROM analytics_provider_players WHERE ${players} RETURNING *),
       sums AS (SELECT operator_id, currency, provider, sum(volume) AS volume, sum(total_amount) AS total_amount, sum(completed) AS completed,
                       sum(deposits) AS deposits, sum(withdrawals) AS withdrawals FROM gone GROUP BY 1, 2, 3)
     UPDATE analytics_providers t SET volume = t.volume - s.volume, total_amount = t.total_amount - s.total_amount, completed = t.completed - s.completed,
            deposits = t.deposits - s.deposits, withdrawals = t.withdrawals - s.withdrawals
       FROM sums s WHERE t.operator_id = s.operator_id AND t.currency = s.currency AND t.provider = s.provider`,
    bindings,
  );
  await subtractErasedDistinct(trx, withErased, bindings);
  await subtractErasedFirstDeposits(trx, withErased, bindings);
  await subtractErasedTransactions(trx, withErased, bindings);
  await trx.raw(
    `${withErased}, gone AS (DELETE FROM analytics_game_days WHERE ${players} RETURNING *),
       sums AS (SELECT operator_id, currency, day, game, provider, sum(rounds) AS rounds, sum(bets) AS bets, sum(wins) AS wins,
                       sum(bonus_bets) AS bonus_bets, sum(bonus_wins) AS bonus_wins FROM gone GROUP BY 1, 2, 3, 4, 5)
     UPDATE analytics_game_health_days t SET rounds = t.rounds - s.rounds, bets = t.bets - s.bets, wins = t.wins - s.wins,
            bonus_bets = t.bonus_bets - s.bonus_bets, bonus_wins = t.bonus_wins - s.bonus_wins
       FROM sums s WHERE t.operator_id = s.operator_id AND t.currency = s.currency AND t.day = s.day
        AND t.game IS NOT DISTINCT FROM s.game AND t.provider IS NOT DISTINCT FROM s.provider`,
    bindings,
  );
  await trx.raw('DELETE FROM analytics_games WHERE rounds = 0');
  await trx.raw('DELETE FROM analytics_providers WHERE volume = 0');
  return erased.rows.length;
}
