import type { Db } from '../knex';
import { cohortBindings, cohortOf, ngrParts, RETENTION_DAYS, type Cohort, type CohortQuery } from './analyticsCohorts';
import { BUCKETS, bucketOf } from './analyticsSql';
import type { AnalyticsScope } from './analyticsTypes';

const AS_OF = 'CAST(:asOf AS date)';
const IN_RANGE = `operator_id = :operatorId AND currency = :currency AND ftd_day BETWEEN CAST(:start AS date) AND CAST(:end AS date)`;

/** Per retention column: the members whose day N has begun, and of them those active on it. */
const retentionColumns = RETENTION_DAYS.map(
  (n) =>
    `coalesce(sum(d.players) FILTER (WHERE d.ftd_day + ${n} <= ${AS_OF}), 0) AS matured_d${n},
     coalesce(sum(d.retained_d${n}) FILTER (WHERE d.ftd_day + ${n} <= ${AS_OF}), 0) AS retained_d${n}`,
).join(',\n');

/** One row per bucket of the range, the columns `cohortOf` reads, from the cohort days and last days. */
const COHORT_ROWS = `WITH days AS (
    SELECT ftd_day, CASE WHEN jurisdiction = ANY(:listed) THEN jurisdiction ELSE '' END AS jurisdiction, players, ftd_amount, ggr, bonus_cost,
           ${RETENTION_DAYS.map((n) => `retained_d${n}`).join(', ')}
      FROM analytics_cohort_days WHERE ${IN_RANGE} AND players <> 0
  ), ${ngrParts('days')}, churned AS MATERIALIZED (
    SELECT ${bucketOf('ftd_day')} AS bucket, sum(players) AS players
      FROM analytics_cohort_last_days WHERE ${IN_RANGE} AND last_day <= ${AS_OF} - CAST(:churnDays AS int)
     GROUP BY 1
  )
  SELECT to_char(b.bucket, 'YYYY-MM-DD') AS cohort, coalesce(sum(d.players), 0) AS players, coalesce(sum(d.ftd_amount), 0) AS ftd_amount,
         ${retentionColumns},
         coalesce(sum(d.ggr), 0) AS ggr, coalesce(sum(d.bonus_cost), 0) AS bonus_cost,
         (SELECT ngr_parts FROM parts WHERE parts.bucket = b.bucket) AS ngr_parts,
         coalesce((SELECT players FROM churned WHERE churned.bucket = b.bucket), 0) AS churned_players
    FROM (${BUCKETS}) b LEFT JOIN days d ON ${bucketOf('d.ftd_day')} = b.bucket
   GROUP BY b.bucket ORDER BY b.bucket`;

/**
 * The cohorts from the rollups, same definitions as `rawCohortFigures`: the members' figures summed per FTD day and
 * kept jurisdiction key (`analytics_cohort_days`: players, FTD amount, GGR and bonus cost from the FTD on, players
 * active on FTD day + N) and members per last active day (`analytics_cohort_last_days`), kept by the pass
 * (analyticsRollupCohorts.ts). A day N after `asOf` is not yet retained; a day's members are matured for N once FTD day
 * + N ≤ `asOf`. The NGR group is the jurisdiction the members' days are kept under, a listed one or the unlisted group.
 * Reads a few rows per day of the range, never the members; as of the rollups' watermark.
 */
export async function viewCohortFigures(db: Db, scope: AnalyticsScope, query: CohortQuery): Promise<Cohort[]> {
  const result = await db.raw(COHORT_ROWS, cohortBindings(scope, query));
  return (result.rows as Array<Record<string, unknown>>).map((row) => cohortOf(row, query.ngr));
}
