import type { Db } from '../knex';
import { cohortBindings, cohortOf, cohortRows, RETENTION_DAYS, type Cohort, type CohortQuery } from './analyticsCohorts';
import type { AnalyticsScope } from './analyticsTypes';

/**
 * The cohorts from the rollups, same definitions as `rawCohortFigures`: one kept row per member
 * (`analytics_first_deposits`, by its `(operator_id, currency, day)` index) holds the FTD day and amount, the last
 * activity, whether the member was active on FTD day + N, and GGR and bonus cost from the FTD's day on
 * (analyticsRollupFirstDeposits.ts), less `pre_ftd_ggr` and `pre_ftd_bonus` (the FTD day's rounds and bonuses before
 * the deposit): from the FTD on, as the raw path counts them. A day N after `asOf` is not yet retained. The NGR group is
 * the jurisdiction the member's days are kept under (`analytics_player_keys`; a member without a round or a bonus has no
 * GGR or bonus cost there, and adds nothing to NGR). Reads the members' rows only; as of the rollups' watermark.
 */
export async function viewCohortFigures(db: Db, scope: AnalyticsScope, query: CohortQuery): Promise<Cohort[]> {
  const players = `SELECT f.entity_id, f.day AS ftd_day, f.amount,
            CASE WHEN k.jurisdiction = ANY(:listed) THEN k.jurisdiction ELSE '' END AS jurisdiction, f.last_active_day AS last_day,
            f.ggr_from_ftd_day - f.pre_ftd_ggr AS ggr, f.bonus_from_ftd_day - f.pre_ftd_bonus AS bonus_cost,
            ${RETENTION_DAYS.map((n) => `f.retained_d${n} AND f.day + ${n} <= CAST(:asOf AS date) AS d${n}`).join(', ')}
       FROM analytics_first_deposits f
       LEFT JOIN analytics_player_keys k ON k.operator_id = f.operator_id AND k.entity_id = f.entity_id
      WHERE f.operator_id = :operatorId AND f.currency = :currency AND f.day BETWEEN CAST(:start AS date) AND CAST(:end AS date)`;
  const result = await db.raw(cohortRows(players), cohortBindings(scope, query));
  return (result.rows as Array<Record<string, unknown>>).map((row) => cohortOf(row, query.ngr));
}
