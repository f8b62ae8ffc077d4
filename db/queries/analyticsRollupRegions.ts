import type { Db } from '../knex';
import { currencyGroup, SPLIT_CODE } from './analyticsSplits';

/**
 * The splits' part of the rollups (docs/analytics.md "Splits"): money and first deposits per day, currency and player
 * group (`analytics_region_days`) and the gaps of the active and depositing series per group (`analytics_region_gaps`), for
 * two dimensions, the player's country and jurisdiction, each under the key the player's days are kept under
 * (`analytics_player_keys`, analyticsRollupJurisdictions.ts). A player whose key changes has their rows moved by the
 * next pass; an erasure takes them out.
 */

/** The series of the players with a round or a completed deposit in a currency group, and with a completed deposit. */
export const ACTIVE = 'active-in-currency:';
export const DEPOSITED = 'deposited-in-currency:';
/** A chain row (alias `c`) of one of the two series. */
export const REGION_SERIES = (c: string) => `(${c}.series LIKE '${ACTIVE}%' OR ${c}.series LIKE '${DEPOSITED}%')`;

/** The batch's chain rows of the two series (`analytics_batch`, analyticsRollupBatch.ts; a union member of analyticsRollupDistinct.ts). */
export const REGION_SERIES_DAYS = `SELECT operator_id, entity_id, '${ACTIVE}' || ${currencyGroup('currency')}, day FROM analytics_batch WHERE counted AND (is_game OR is_deposit)
    UNION
    SELECT operator_id, entity_id, '${DEPOSITED}' || ${currencyGroup('currency')}, day FROM analytics_batch WHERE counted AND is_deposit`;

const regionOf = (key: string) => `CASE WHEN ${key} ~ ${SPLIT_CODE} THEN ${key} ELSE 'other' END`;
/** The two groups of a player's kept keys (alias `k`: `country`, `jurisdiction`), as rows `g(dimension, key)`. */
const GROUPS = `CROSS JOIN LATERAL (VALUES ('country', k.country), ('jurisdiction', ${regionOf('k.jurisdiction')})) g(dimension, key)`;
/** A player's kept keys by a primary-key probe (`row`: operator_id, entity_id). */
const KEPT = (row: string) =>
  `JOIN LATERAL (SELECT country, jurisdiction FROM analytics_player_keys pk WHERE pk.operator_id = ${row}.operator_id AND pk.entity_id = ${row}.entity_id) k ON true`;

const ADD_DAYS = `INSERT INTO analytics_region_days AS t (operator_id, dimension, currency, day, key, ggr, deposits, withdrawals)
  SELECT b.operator_id, g.dimension, b.currency, b.day, g.key, sum(b.ggr), sum(b.deposits), sum(b.withdrawals)
    FROM (SELECT operator_id, day, entity_id, currency, sum(bet - win) AS ggr, sum(deposit) AS deposits, sum(withdrawal) AS withdrawals
            FROM analytics_batch WHERE counted GROUP BY 1, 2, 3, 4) b
    ${KEPT('b')} ${GROUPS}
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (operator_id, dimension, currency, day, key)
  DO UPDATE SET ggr = t.ggr + excluded.ggr, deposits = t.deposits + excluded.deposits, withdrawals = t.withdrawals + excluded.withdrawals`;

/** Adds `pairs` (operator_id, entity_id, series, day, prev_day, delta) to the gaps of each player's groups. */
const addGaps = (pairs: string) => `INSERT INTO analytics_region_gaps AS t (operator_id, dimension, series, day, prev_day, key, players)
  SELECT m.operator_id, g.dimension, m.series, m.day, m.prev_day, g.key, sum(m.delta)
    FROM (${pairs}) m ${KEPT('m')} ${GROUPS}
   GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(m.delta) <> 0
  ON CONFLICT (operator_id, dimension, series, day, prev_day, key) DO UPDATE SET players = t.players + excluded.players`;

/** Folds the batch's money into the region days; after the batch's players are kept. */
export async function foldRegionDays(trx: Db): Promise<void> {
  await trx.raw(ADD_DAYS);
}

/**
 * Moves each player whose first deposit was set (`analytics_ftd_set`, analyticsRollupFirstDeposits.ts: old and new
 * currency and day) from the old FTD's day to the new one in their groups' FTDs.
 */
export async function foldRegionFtds(trx: Db): Promise<void> {
  await trx.raw(
    `INSERT INTO analytics_region_days AS t (operator_id, dimension, currency, day, key, ftds)
     SELECT n.operator_id, g.dimension, x.currency, x.day, g.key, sum(x.sign)
       FROM analytics_ftd_set n ${KEPT('n')} ${GROUPS}
       CROSS JOIN LATERAL (VALUES (n.old_currency, n.old_day, -1), (n.currency, n.day, 1)) x(currency, day, sign)
      WHERE x.currency IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(x.sign) <> 0
     ON CONFLICT (operator_id, dimension, currency, day, key) DO UPDATE SET ftds = t.ftds + excluded.ftds`,
  );
}

/** Adds the pairs that moved in this batch's chains (`analytics_chain_moved`, analyticsRollupDistinct.ts) to the region gaps. */
export async function foldRegionGaps(trx: Db): Promise<void> {
  await trx.raw(
    addGaps(`SELECT operator_id, entity_id, series, day, new_prev AS prev_day, 1 AS delta FROM analytics_chain_moved c WHERE ${REGION_SERIES('c')}
             UNION ALL
             SELECT operator_id, entity_id, series, day, old_prev, -1 FROM analytics_chain_moved c WHERE old_prev IS NOT NULL AND ${REGION_SERIES('c')}`),
  );
}

/**
 * Moves each moved player's region rows (`analytics_keys_moved`: operator_id, entity_id, old and new `country` and
 * `jurisdiction` keys) from their old groups to their new ones: money from their player-days, first deposits from
 * theirs, pairs from their chains. Before their kept keys are updated.
 */
export async function moveRegions(trx: Db): Promise<void> {
  const sides = `(VALUES ('country', m.old_country, m.new_country),
                         ('jurisdiction', ${regionOf('m.old_jurisdiction')}, ${regionOf('m.new_jurisdiction')})) s(dimension, old_key, new_key)
    CROSS JOIN LATERAL (VALUES (s.old_key, -1), (s.new_key, 1)) x(key, sign)`;
  await trx.raw(
    `INSERT INTO analytics_region_days AS t (operator_id, dimension, currency, day, key, ggr, deposits, withdrawals)
     SELECT d.operator_id, s.dimension, d.currency, d.day, x.key, sum(x.sign * d.ggr), sum(x.sign * d.deposits), sum(x.sign * d.withdrawals)
       FROM analytics_keys_moved m
       JOIN analytics_player_days d ON d.operator_id = m.operator_id AND d.entity_id = m.entity_id
       CROSS JOIN LATERAL ${sides}
      WHERE s.old_key <> s.new_key
      GROUP BY 1, 2, 3, 4, 5
     ON CONFLICT (operator_id, dimension, currency, day, key)
     DO UPDATE SET ggr = t.ggr + excluded.ggr, deposits = t.deposits + excluded.deposits, withdrawals = t.withdrawals + excluded.withdrawals`,
  );
  await trx.raw(
    `INSERT INTO analytics_region_days AS t (operator_id, dimension, currency, day, key, ftds)
     SELECT f.operator_id, s.dimension, f.currency, f.day, x.key, sum(x.sign)
       FROM analytics_keys_moved m
       JOIN analytics_first_deposits f ON f.operator_id = m.operator_id AND f.entity_id = m.entity_id
       CROSS JOIN LATERAL ${sides}
      WHERE s.old_key <> s.new_key
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(x.sign) <> 0
     ON CONFLICT (operator_id, dimension, currency, day, key) DO UPDATE SET ftds = t.ftds + excluded.ftds`,
  );
  await trx.raw(
    `INSERT INTO analytics_region_gaps AS t (operator_id, dimension, series, day, prev_day, key, players)
     SELECT c.operator_id, s.dimension, c.series, c.day, c.prev_day, x.key, sum(x.sign)
       FROM analytics_keys_moved m
       JOIN analytics_player_chain c ON c.operator_id = m.operator_id AND c.entity_id = m.entity_id AND ${REGION_SERIES('c')}
       CROSS JOIN LATERAL ${sides}
      WHERE s.old_key <> s.new_key
      GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(x.sign) <> 0
     ON CONFLICT (operator_id, dimension, series, day, prev_day, key) DO UPDATE SET players = t.players + excluded.players`,
  );
}

/**
 * Takes erased players' region rows out under their kept keys (binding `erased`, the JSON list of
 * analyticsRollupBatch.ts); before their keys, player-days, first deposits and chains are deleted.
 */
export async function subtractErasedRegions(trx: Db, withErased: string, bindings: Record<string, string>): Promise<void> {
  await trx.raw(
    `${withErased}, sums AS (
       SELECT d.operator_id, g.dimension, d.currency, d.day, g.key, sum(d.ggr) AS ggr, sum(d.deposits) AS deposits, sum(d.withdrawals) AS withdrawals
         FROM erased e
         JOIN analytics_player_keys k ON k.operator_id = e.operator_id AND k.entity_id = e.entity_id
         JOIN analytics_player_days d ON d.operator_id = e.operator_id AND d.entity_id = e.entity_id
         ${GROUPS}
        GROUP BY 1, 2, 3, 4, 5
     )
     UPDATE analytics_region_days t SET ggr = t.ggr - s.ggr, deposits = t.deposits - s.deposits, withdrawals = t.withdrawals - s.withdrawals
       FROM sums s WHERE t.operator_id = s.operator_id AND t.dimension = s.dimension AND t.currency = s.currency AND t.day = s.day AND t.key = s.key`,
    bindings,
  );
  await trx.raw(
    `${withErased}, sums AS (
       SELECT f.operator_id, g.dimension, f.currency, f.day, g.key, count(*) AS ftds
         FROM erased e
         JOIN analytics_player_keys k ON k.operator_id = e.operator_id AND k.entity_id = e.entity_id
         JOIN analytics_first_deposits f ON f.operator_id = e.operator_id AND f.entity_id = e.entity_id
         ${GROUPS}
        GROUP BY 1, 2, 3, 4, 5
     )
     UPDATE analytics_region_days t SET ftds = t.ftds - s.ftds
       FROM sums s WHERE t.operator_id = s.operator_id AND t.dimension = s.dimension AND t.currency = s.currency AND t.day = s.day AND t.key = s.key`,
    bindings,
  );
  await trx.raw(
    `${withErased}, sums AS (
       SELECT c.operator_id, g.dimension, c.series, c.day, c.prev_day, g.key, count(*) AS players
         FROM erased e
         JOIN analytics_player_keys k ON k.operator_id = e.operator_id AND k.entity_id = e.entity_id
         JOIN analytics_player_chain c ON c.operator_id = e.operator_id AND c.entity_id = e.entity_id AND ${REGION_SERIES('c')}
         ${GROUPS}
        GROUP BY 1, 2, 3, 4, 5, 6
     )
     UPDATE analytics_region_gaps t SET players = t.players - s.players
       FROM sums s WHERE t.operator_id = s.operator_id AND t.dimension = s.dimension AND t.series = s.series AND t.day = s.day
        AND t.prev_day = s.prev_day AND t.key = s.key`,
    bindings,
  );
}
