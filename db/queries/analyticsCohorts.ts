import type { DayRange } from '../../core/analyticsParams';
import { ngrOf, type NgrDefinition, type NgrPart } from '../../core/ngrDefinition';
import type { Db } from '../knex';
import { NGR_JURISDICTION } from './analyticsNgr';
import { amountOf, BUCKETS, bucketOf, CURRENCY, dayAfter, dayStart, firstDeposits, IS_BONUS, IS_DEPOSIT, IS_GAME, PLAYER_EVENTS } from './analyticsSql';
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
  /** Σ amount of the cohort's completed bonuses in the currency over the same span as `ggr`. */
  bonus_cost: number;
  /** The cohort's NGR over that span by the operator's current definition: its members grouped by jurisdiction as `/business` does. */
  ngr: number;
  ngr_per_player: number;
  /** Cohort players whose last activity (round or completed deposit) is `churnDays` or more days before `asOf`. */
  churned_players: number;
}

export interface CohortQuery {
  range: DayRange;
  grain: CohortGrain;
  /** The day retention and churn are judged on (today, in the API). */
  asOf: string;
  churnDays: number;
  /** The operator's NGR definition the cohorts' NGR is computed with. */
  ngr: NgrDefinition;
}

const AS_OF = 'CAST(:asOf AS date)';

const retentionColumns = RETENTION_DAYS.map(
  (n) =>
    `count(p.entity_id) FILTER (WHERE p.ftd_day + ${n} <= ${AS_OF}) AS matured_d${n},
     count(p.entity_id) FILTER (WHERE p.d${n}) AS retained_d${n}`,
).join(',\n');

/** Whether the player was active on day FTD + N, per retention column, over activity rows `a` with a `day`. */
const retainedColumns = (active: string): string =>
  RETENTION_DAYS.map((n) => `coalesce(bool_or(a.day = c.ftd_day + ${n} AND ${active}), false) AS d${n}`).join(', ');

/**
 * Per bucket, the GGR and bonus cost per NGR jurisdiction (`ngr_parts`) of `rows` (a relation with `ftd_day`,
 * `jurisdiction`, `ggr`, `bonus_cost`): the CTE `parts` both paths read.
 */
export const ngrParts = (rows: string): string => `parts AS MATERIALIZED (
    SELECT bucket, jsonb_agg(jsonb_build_object('jurisdiction', jurisdiction, 'ggr', ggr, 'bonusCost', bonus_cost)) AS ngr_parts
      FROM (SELECT ${bucketOf('ftd_day')} AS bucket, jurisdiction, sum(ggr) AS ggr, sum(bonus_cost) AS bonus_cost FROM ${rows} GROUP BY 1, 2) j
     GROUP BY 1
  )`;

/**
 * One row per bucket of the range from `players` (one row per cohort player: `entity_id`, `ftd_day`, `amount`,
 * `jurisdiction`, `last_day`, `ggr`, `bonus_cost`, `d1`/`d7`/`d30`): the raw path's query (bindings `unit`, `start`,
 * `end`, `asOf`, `churnDays`); the rollups' (analyticsCohortsView.ts) answers the same columns from the cohort days.
 */
const cohortRows = (players: string): string => `WITH players AS (${players}),
     ${ngrParts('players')}
     SELECT to_char(b.bucket, 'YYYY-MM-DD') AS cohort, count(p.entity_id) AS players, coalesce(sum(p.amount), 0) AS ftd_amount,
            ${retentionColumns},
            coalesce(sum(p.ggr), 0) AS ggr, coalesce(sum(p.bonus_cost), 0) AS bonus_cost,
            (SELECT ngr_parts FROM parts WHERE parts.bucket = b.bucket) AS ngr_parts,
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
  listed: query.ngr.taxes.map((tax) => tax.jurisdiction.toUpperCase()),
});

/**
 * Players by the week or month of their first-time deposit (FTD: their first completed deposit ever, in any currency;
 * a cohort of `currency` holds the players whose FTD was in it), with D1/D7/D30 retention, GGR and NGR to date and churn
 * (docs/analytics.md "Cohorts"), straight from the event table: before the rollups' first pass. Dated by occurrence
 * time; erased players' events are redacted, so they are in no cohort. One row per bucket of the range, empty ones
 * included.
 */
export async function rawCohortFigures(db: Db, scope: AnalyticsScope, query: CohortQuery): Promise<Cohort[]> {
  const players = `WITH firsts AS (
       ${firstDeposits(`e.occurred_at < ${dayAfter('end')}`, `${NGR_JURISDICTION} AS jurisdiction`)}
     ), cohort AS (
       SELECT f.entity_id, f.occurred_at AS ftd_at, (f.occurred_at AT TIME ZONE 'UTC')::date AS ftd_day, f.amount, f.jurisdiction
         FROM firsts f WHERE f.currency = :currency AND f.occurred_at >= ${dayStart('start')}
     ), activity AS (
       SELECT e.entity_id, e.occurred_at AS at, (e.occurred_at AT TIME ZONE 'UTC')::date AS day, NOT (${IS_BONUS}) AS active,
              CASE WHEN ${IS_GAME} THEN ${amountOf('bet_amount')} - ${amountOf('win_amount')} ELSE 0 END AS ggr,
              CASE WHEN ${IS_BONUS} THEN ${amountOf('amount')} ELSE 0 END AS bonus
         FROM ${PLAYER_EVENTS} AND ((${IS_GAME}) OR (${IS_DEPOSIT}) OR (${IS_BONUS})) AND ${CURRENCY} = :currency
          AND e.entity_id IN (SELECT entity_id FROM cohort) AND e.occurred_at < ${dayAfter('asOf')}
     )
     SELECT c.entity_id, c.ftd_day, c.amount, c.jurisdiction, max(a.day) FILTER (WHERE a.active) AS last_day,
            coalesce(sum(a.ggr) FILTER (WHERE a.at >= c.ftd_at), 0) AS ggr,
            coalesce(sum(a.bonus) FILTER (WHERE a.at >= c.ftd_at), 0) AS bonus_cost,
            ${retainedColumns('a.active')}
       FROM cohort c LEFT JOIN activity a ON a.entity_id = c.entity_id
      GROUP BY c.entity_id, c.ftd_day, c.amount, c.jurisdiction`;
  const result = await db.raw(cohortRows(players), cohortBindings(scope, query));
  return (result.rows as Array<Record<string, unknown>>).map((row) => cohortOf(row, query.ngr));
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? Number((part / whole).toFixed(4)) : null);

const perPlayer = (amount: number, players: number): number => (players > 0 ? Math.round((amount / players) * 100) / 100 : 0);

/** A row of {@link cohortRows} (or of the rollups' query) as the API's cohort, its NGR by `definition`. */
export function cohortOf(row: Record<string, unknown>, definition: NgrDefinition): Cohort {
  const players = Number(row.players);
  const ggr = Number(row.ggr);
  const ngr = ngrOf((row.ngr_parts as NgrPart[] | null) ?? [], definition).ngr;
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
    ggr_per_player: perPlayer(ggr, players),
    bonus_cost: Number(row.bonus_cost),
    ngr,
    ngr_per_player: perPlayer(ngr, players),
    churned_players: Number(row.churned_players),
  };
}
