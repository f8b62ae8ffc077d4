import type { Db } from '../knex';
import { cohortBindings, cohortOf, cohortRows, retainedColumns, type Cohort, type CohortQuery } from './analyticsCohorts';
import { NGR_JURISDICTION } from './analyticsNgr';
import type { AnalyticsScope } from './analyticsTypes';

/** A player-day counts as activity when it had a game round or a completed deposit (in the row's currency). */
const ACTIVE = '(a.played OR a.deposited)';

/**
 * The cohorts from the rollups, same definitions as `rawCohortFigures`: members, FTD day and amount from the kept first
 * deposits (`analytics_first_deposits`, by its `(operator_id, currency, day)` index) of live players, retention, last
 * activity, GGR and bonus cost from each member's player-days in the currency up to `asOf`. GGR and bonus cost are the
 * player-days' from the FTD's day on, less `pre_ftd_ggr` and `pre_ftd_bonus` (the FTD day's rounds and bonuses before
 * the deposit, kept by the pass): from the FTD on, as the raw path counts them. Reads the members' rows only, never the
 * event table; as of the rollups' watermark.
 */
export async function viewCohortFigures(db: Db, scope: AnalyticsScope, query: CohortQuery): Promise<Cohort[]> {
  const players = `WITH cohort AS (
       SELECT f.entity_id, f.day AS ftd_day, f.amount, f.pre_ftd_ggr, f.pre_ftd_bonus, ${NGR_JURISDICTION} AS jurisdiction
         FROM analytics_first_deposits f
         JOIN entities en ON en.id = f.entity_id AND en.operator_id = f.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
        WHERE f.operator_id = :operatorId AND f.currency = :currency AND f.day BETWEEN CAST(:start AS date) AND CAST(:end AS date)
     )
     SELECT c.entity_id, c.ftd_day, c.amount, c.jurisdiction, max(a.day) FILTER (WHERE ${ACTIVE}) AS last_day,
            coalesce(sum(a.ggr) FILTER (WHERE a.day >= c.ftd_day), 0) - c.pre_ftd_ggr AS ggr,
            coalesce(sum(a.bonus) FILTER (WHERE a.day >= c.ftd_day), 0) - c.pre_ftd_bonus AS bonus_cost,
            ${retainedColumns(ACTIVE)}
       FROM cohort c LEFT JOIN analytics_player_days a
         ON a.operator_id = :operatorId AND a.entity_id = c.entity_id AND a.currency = :currency AND a.day <= CAST(:asOf AS date)
      GROUP BY c.entity_id, c.ftd_day, c.amount, c.pre_ftd_ggr, c.pre_ftd_bonus, c.jurisdiction`;
  const result = await db.raw(cohortRows(players), cohortBindings(scope, query));
  return (result.rows as Array<Record<string, unknown>>).map((row) => cohortOf(row, query.ngr));
}
