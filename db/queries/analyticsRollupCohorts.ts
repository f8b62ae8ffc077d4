import type { Db } from '../knex';
import { RETENTION_DAYS } from './analyticsCohorts';

/**
 * The cohorts' part of the rollups (docs/analytics.md "Cohorts"): the kept members' figures (`analytics_first_deposits`,
 * analyticsRollupFirstDeposits.ts) summed per (operator, currency, FTD day, kept jurisdiction key) in
 * `analytics_cohort_days`, and counted per (currency, FTD day, last active day) in `analytics_cohort_last_days` (churn),
 * so a cohort read sums a few rows per day. Whatever changes members' rows or keys first takes the members' rows out
 * ({@link takeMembersOut}) and afterwards puts them back as they are then ({@link putMembersBack}); only the keys whose
 * sums changed are written.
 */

const RETAINED = RETENTION_DAYS.map((n) => `retained_d${n}`);
const DAY_FIGURES = ['players', 'ftd_amount', 'ggr', 'bonus_cost', ...RETAINED];

/**
 * Each of `members`' (a relation of `operator_id`, `entity_id`) kept row as it is now, with `sign`: its row and key by
 * a primary-key probe, so the cost follows the members, never the tables.
 */
const memberRows = (members: string, sign: 1 | -1) => `SELECT f.operator_id, f.currency, f.day AS ftd_day, coalesce(k.jurisdiction, '') AS jurisdiction,
       f.last_active_day AS last_day, ${sign} AS sign, f.amount, f.ggr_from_ftd_day - f.pre_ftd_ggr AS ggr, f.bonus_from_ftd_day - f.pre_ftd_bonus AS bonus_cost,
       ${RETAINED.map((column) => `f.${column}`).join(', ')}
  FROM ${members} m
  CROSS JOIN LATERAL (SELECT * FROM analytics_first_deposits fd WHERE fd.operator_id = m.operator_id AND fd.entity_id = m.entity_id) f
  LEFT JOIN LATERAL (SELECT pk.jurisdiction FROM analytics_player_keys pk WHERE pk.operator_id = m.operator_id AND pk.entity_id = m.entity_id) k ON true`;

/** The sums of {@link memberRows}' rows, in the order of `DAY_FIGURES`. */
const DAY_SUMS = [
  'sum(sign)',
  'sum(sign * amount)',
  'sum(sign * ggr)',
  'sum(sign * bonus_cost)',
  ...RETAINED.map((column) => `sum(CASE WHEN ${column} THEN sign ELSE 0 END)`),
];

/** Adds `rows` (of {@link memberRows}'s columns) to the cohort days, one write per key whose sums changed. */
const ADD_DAYS = (rows: string) => `INSERT INTO analytics_cohort_days AS t (operator_id, currency, ftd_day, jurisdiction, ${DAY_FIGURES.join(', ')})
  SELECT operator_id, currency, ftd_day, jurisdiction, ${DAY_SUMS.join(', ')}
    FROM (${rows}) d
   GROUP BY 1, 2, 3, 4 HAVING ${DAY_SUMS.map((sum) => `${sum} <> 0`).join(' OR ')}
  ON CONFLICT (operator_id, currency, ftd_day, jurisdiction)
  DO UPDATE SET ${DAY_FIGURES.map((column) => `${column} = t.${column} + excluded.${column}`).join(', ')}`;

/** Adds `rows` to the members per last active day (a member with no activity in the currency is never churned). */
const ADD_LAST_DAYS = (rows: string) => `INSERT INTO analytics_cohort_last_days AS t (operator_id, currency, ftd_day, last_day, players)
  SELECT operator_id, currency, ftd_day, last_day, sum(sign) FROM (${rows}) d WHERE last_day IS NOT NULL GROUP BY 1, 2, 3, 4 HAVING sum(sign) <> 0
  ON CONFLICT (operator_id, currency, ftd_day, last_day) DO UPDATE SET players = t.players + excluded.players`;

/** Takes `members`' rows out, into the change's delta (`analytics_cohort_delta`). */
export async function takeMembersOut(trx: Db, members: string): Promise<void> {
  await trx.raw(`CREATE TEMP TABLE analytics_cohort_delta ON COMMIT DROP AS ${memberRows(members, -1)}`);
}

/** Puts `members`' rows back as they are now, and writes the change's delta to the cohort days and last days. */
export async function putMembersBack(trx: Db, members: string): Promise<void> {
  await trx.raw(`INSERT INTO analytics_cohort_delta ${memberRows(members, 1)}`);
  await trx.raw(ADD_DAYS('SELECT * FROM analytics_cohort_delta'));
  await trx.raw(ADD_LAST_DAYS('SELECT * FROM analytics_cohort_delta'));
  await trx.raw('DROP TABLE analytics_cohort_delta');
}

/**
 * Takes erased players' sums out (binding `erased`, the JSON list of analyticsRollupBatch.ts); before their keys and
 * first deposits are deleted.
 */
export async function subtractErasedCohorts(trx: Db, withErased: string, bindings: Record<string, string>): Promise<void> {
  await trx.raw(`${withErased} ${ADD_DAYS(memberRows('erased', -1))}`, bindings);
  await trx.raw(`${withErased} ${ADD_LAST_DAYS(memberRows('erased', -1))}`, bindings);
}
