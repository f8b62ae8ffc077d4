import type { Db } from '../knex';
import { RETENTION_DAYS } from './analyticsCohorts';

/**
 * The cohorts' part of the rollups (docs/analytics.md "Cohorts"): the kept members' figures (`analytics_first_deposits`,
 * analyticsRollupFirstDeposits.ts) summed per (operator, currency, FTD day, kept jurisdiction key) in
 * `analytics_cohort_days`, and counted per (currency, FTD day, last active day) in `analytics_cohort_last_days` (churn),
 * so a cohort read sums a few rows per day. Whatever changes members' rows or keys first takes the members' sums out
 * ({@link takeMembersOut}) and afterwards puts them back as they are then ({@link putMembersBack}); only the difference is
 * written.
 */

const RETAINED = RETENTION_DAYS.map((n) => `retained_d${n}`);
const DAY_FIGURES = ['players', 'ftd_amount', 'ggr', 'bonus_cost', ...RETAINED];

/**
 * The sums of `members` (a relation of `operator_id`, `entity_id`) times `sign`, per cohort day and key: each member's
 * kept row and key by a primary-key probe, so the cost follows the members, never the tables.
 */
const memberDays = (members: string, sign: 1 | -1) => `SELECT f.operator_id, f.currency, f.day AS ftd_day, coalesce(k.jurisdiction, '') AS jurisdiction,
       ${sign} * count(*) AS players, ${sign} * sum(f.amount) AS ftd_amount, ${sign} * sum(f.ggr_from_ftd_day - f.pre_ftd_ggr) AS ggr,
       ${sign} * sum(f.bonus_from_ftd_day - f.pre_ftd_bonus) AS bonus_cost,
       ${RETAINED.map((column) => `${sign} * count(*) FILTER (WHERE f.${column}) AS ${column}`).join(', ')}
  FROM ${members} m
  CROSS JOIN LATERAL (SELECT * FROM analytics_first_deposits fd WHERE fd.operator_id = m.operator_id AND fd.entity_id = m.entity_id) f
  LEFT JOIN LATERAL (SELECT pk.jurisdiction FROM analytics_player_keys pk WHERE pk.operator_id = m.operator_id AND pk.entity_id = m.entity_id) k ON true
 GROUP BY 1, 2, 3, 4`;

/** The members counted per last active day, times `sign` (a member with no activity in the currency is never churned). */
const memberLastDays = (
  members: string,
  sign: 1 | -1,
) => `SELECT f.operator_id, f.currency, f.day AS ftd_day, f.last_active_day AS last_day, ${sign} * count(*) AS players
  FROM ${members} m
  CROSS JOIN LATERAL (SELECT * FROM analytics_first_deposits fd WHERE fd.operator_id = m.operator_id AND fd.entity_id = m.entity_id) f
 WHERE f.last_active_day IS NOT NULL
 GROUP BY 1, 2, 3, 4`;

/** Adds `rows` (of {@link memberDays}'s columns) to the cohort days, one write per key whose sums changed. */
const ADD_DAYS = (rows: string) => `INSERT INTO analytics_cohort_days AS t (operator_id, currency, ftd_day, jurisdiction, ${DAY_FIGURES.join(', ')})
  SELECT operator_id, currency, ftd_day, jurisdiction, ${DAY_FIGURES.map((column) => `sum(${column})`).join(', ')}
    FROM (${rows}) d
   GROUP BY 1, 2, 3, 4 HAVING ${DAY_FIGURES.map((column) => `sum(${column}) <> 0`).join(' OR ')}
  ON CONFLICT (operator_id, currency, ftd_day, jurisdiction)
  DO UPDATE SET ${DAY_FIGURES.map((column) => `${column} = t.${column} + excluded.${column}`).join(', ')}`;

const ADD_LAST_DAYS = (rows: string) => `INSERT INTO analytics_cohort_last_days AS t (operator_id, currency, ftd_day, last_day, players)
  SELECT operator_id, currency, ftd_day, last_day, sum(players) FROM (${rows}) d GROUP BY 1, 2, 3, 4 HAVING sum(players) <> 0
  ON CONFLICT (operator_id, currency, ftd_day, last_day) DO UPDATE SET players = t.players + excluded.players`;

/** Takes `members`' sums out, into the change's deltas (`analytics_cohort_delta`, `analytics_cohort_last_delta`). */
export async function takeMembersOut(trx: Db, members: string): Promise<void> {
  await trx.raw(`CREATE TEMP TABLE analytics_cohort_delta ON COMMIT DROP AS ${memberDays(members, -1)}`);
  await trx.raw(`CREATE TEMP TABLE analytics_cohort_last_delta ON COMMIT DROP AS ${memberLastDays(members, -1)}`);
}

/** Puts `members`' sums back as they are now, and writes the change's deltas to the cohort days. */
export async function putMembersBack(trx: Db, members: string): Promise<void> {
  await trx.raw(`INSERT INTO analytics_cohort_delta ${memberDays(members, 1)}`);
  await trx.raw(`INSERT INTO analytics_cohort_last_delta ${memberLastDays(members, 1)}`);
  await trx.raw(ADD_DAYS('SELECT * FROM analytics_cohort_delta'));
  await trx.raw(ADD_LAST_DAYS('SELECT * FROM analytics_cohort_last_delta'));
  await trx.raw('DROP TABLE analytics_cohort_delta, analytics_cohort_last_delta');
}

/**
 * Takes erased players' sums out (binding `erased`, the JSON list of analyticsRollupBatch.ts); before their keys and
 * first deposits are deleted.
 */
export async function subtractErasedCohorts(trx: Db, withErased: string, bindings: Record<string, string>): Promise<void> {
  await trx.raw(`${withErased} ${ADD_DAYS(memberDays('erased', -1))}`, bindings);
  await trx.raw(`${withErased} ${ADD_LAST_DAYS(memberLastDays('erased', -1))}`, bindings);
}
