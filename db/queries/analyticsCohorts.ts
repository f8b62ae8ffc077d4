import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { amountOf, BUCKETS, bucketOf, CURRENCY, dayAfter, dayStart, firstDeposits, IS_DEPOSIT, IS_GAME, PLAYER_EVENTS } from './analyticsSql';
import type { AnalyticsScope } from './analyticsTypes';

/** The days after a player's FTD whose activity makes a retention column (Smartico's D1/D7/D30). */
export const RETENTION_DAYS = [1, 7, 30] as const;
export type CohortGrain = 'week' | 'month';

export interface Retention {
  /** Cohort players whose day N has begun (FTD day + N ≤ `asOf`): only they can have come back on it. */
  matured: number;
  /** Of those, players with a game round or a completed deposit in the currency on exactly day N. */
  retained: number;
  /** retained ÷ matured, 4 decimals; null while no player of the cohort has reached day N. */
  rate: number | null;
}

export interface Cohort {
  /** The cohort's first day: the Monday of its week or the 1st of its month (UTC). */
  cohort: string;
  players: number;
  ftd_amount: number;
  retention: Record<`d${(typeof RETENTION_DAYS)[number]}`, Retention>;
  /** Σ bet − win of the cohort's rounds in the currency, from their FTD (a round before it, bonus play, is not counted) to `asOf`. */
  ggr: number;
  ggr_per_player: number;
  /** Cohort players whose last activity (round or completed deposit) is `churnDays` or more days before `asOf`. */
  churned_players: number;
}

export interface CohortQuery {
  range: DayRange;
  grain: CohortGrain;
  /** The day retention and churn are judged on (today, in the API). */
  asOf: string;
  churnDays: number;
}

const AS_OF = 'CAST(:asOf AS date)';

const retentionColumns = RETENTION_DAYS.map(
  (n) =>
    `count(p.entity_id) FILTER (WHERE p.ftd_day + ${n} <= ${AS_OF}) AS matured_d${n},
     count(p.entity_id) FILTER (WHERE p.d${n}) AS retained_d${n}`,
).join(',\n');

/** Whether the player was active on day FTD + N, per retention column, over activity rows `a` with a `day`. */
export const retainedColumns = (active: string): string =>
  RETENTION_DAYS.map((n) => `coalesce(bool_or(a.day = c.ftd_day + ${n} AND ${active}), false) AS d${n}`).join(', ');

/**
 * One row per bucket of the range from `players` (one row per cohort player: `entity_id`, `ftd_day`, `amount`,
 * `last_day`, `ggr`, `d1`/`d7`/`d30`), the query both paths end with (bindings `unit`, `start`, `end`, `asOf`, `churnDays`).
 */
export const cohortRows = (players: string): string => `WITH players AS (${players})
     SELECT to_char(b.bucket, 'YYYY-MM-DD') AS cohort, count(p.entity_id) AS players, coalesce(sum(p.amount), 0) AS ftd_amount,
            ${retentionColumns},
            coalesce(sum(p.ggr), 0) AS ggr,
            count(p.entity_id) FILTER (WHERE p.last_day <= ${AS_OF} - CAST(:churnDays AS int)) AS churned_players
       FROM (${BUCKETS}) b LEFT JOIN players p ON ${bucketOf('p.ftd_day')} = b.bucket
      GROUP BY b.bucket ORDER BY b.bucket`;

/** The bindings of a cohort query. */
export const cohortBindings = (scope: AnalyticsScope, query: CohortQuery) => ({
  operatorId: scope.operatorId,
  reporting: scope.reportingCurrency,
  currency: scope.currency,
  start: query.range.start,
  end: query.range.end,
  unit: query.grain,
  asOf: query.asOf,
  churnDays: query.churnDays,
});

/**
 * Players by the week or month of their first-time deposit (FTD: their first completed deposit ever, in any currency;
 * a cohort of `currency` holds the players whose FTD was in it), with D1/D7/D30 retention, GGR to date and churn
 * (docs/analytics.md "Cohorts"), straight from the event table: before the rollups' first pass. Dated by occurrence
 * time; erased players' events are redacted, so they are in no cohort. One row per bucket of the range, empty ones
 * included.
 */
export async function rawCohortFigures(db: Db, scope: AnalyticsScope, query: CohortQuery): Promise<Cohort[]> {
  const players = `WITH firsts AS (
       ${firstDeposits(`e.occurred_at < ${dayAfter('end')}`)}
     ), cohort AS (
       SELECT f.entity_id, f.occurred_at AS ftd_at, (f.occurred_at AT TIME ZONE 'UTC')::date AS ftd_day, f.amount
         FROM firsts f WHERE f.currency = :currency AND f.occurred_at >= ${dayStart('start')}
     ), activity AS (
       SELECT e.entity_id, e.occurred_at AS at, (e.occurred_at AT TIME ZONE 'UTC')::date AS day,
              CASE WHEN ${IS_GAME} THEN ${amountOf('bet_amount')} - ${amountOf('win_amount')} ELSE 0 END AS ggr
         FROM ${PLAYER_EVENTS} AND ((${IS_GAME}) OR (${IS_DEPOSIT})) AND ${CURRENCY} = :currency
          AND e.entity_id IN (SELECT entity_id FROM cohort) AND e.occurred_at < ${dayAfter('asOf')}
     )
     SELECT c.entity_id, c.ftd_day, c.amount, max(a.day) AS last_day,
            coalesce(sum(a.ggr) FILTER (WHERE a.at >= c.ftd_at), 0) AS ggr,
            ${retainedColumns('true')}
       FROM cohort c LEFT JOIN activity a ON a.entity_id = c.entity_id
      GROUP BY c.entity_id, c.ftd_day, c.amount`;
  const result = await db.raw(cohortRows(players), cohortBindings(scope, query));
  return (result.rows as Array<Record<string, unknown>>).map(cohortOf);
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? Number((part / whole).toFixed(4)) : null);

export function cohortOf(row: Record<string, unknown>): Cohort {
  const players = Number(row.players);
  const ggr = Number(row.ggr);
  const retention = Object.fromEntries(
    RETENTION_DAYS.map((n) => {
      const matured = Number(row[`matured_d${n}`]);
      const retained = Number(row[`retained_d${n}`]);
      return [`d${n}`, { matured, retained, rate: ratio(retained, matured) }];
    }),
  ) as Cohort['retention'];
  return {
    cohort: String(row.cohort),
    players,
    ftd_amount: Number(row.ftd_amount),
    retention,
    ggr,
    ggr_per_player: players > 0 ? Math.round((ggr / players) * 100) / 100 : 0,
    churned_players: Number(row.churned_players),
  };
}
