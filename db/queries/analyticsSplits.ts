import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { amountOf, CURRENCY, dayAfter, dayStart, firstDeposits, IN_RANGE, IS_DEPOSIT, IS_GAME, IS_WITHDRAWAL, PLAYER_EVENTS } from './analyticsSql';
import type { AnalyticsScope } from './analyticsTypes';

export const SPLIT_DIMENSIONS = ['country', 'jurisdiction', 'currency'] as const;
export type SplitDimension = (typeof SPLIT_DIMENSIONS)[number];

/** The group of a row that names no value, or one that is not a code of the dimension's shape. */
export const OTHER = 'other';

export interface SplitRow {
  /** An ISO 3166 code (`MT`, `GB-SCT`) for country and jurisdiction, an ISO 4217 code for currency, or `other`. */
  key: string;
  currency: string;
  active_players: number;
  depositing_players: number;
  deposits: number;
  withdrawals: number;
  ggr: number;
  ftd_count: number;
}

/**
 * A dimension's group expression: only values of a code's shape form groups (upper-cased), every other value is
 * `other`, so a player's free text can never become a group and the groups stay a few hundred at most. (`{0,1}`, not
 * `?`: knex reads a `?` in raw SQL as a binding.)
 */
export const SPLIT_CODE = `'^[A-Z]{2}(-[A-Z0-9]{1,3}){0,1}$'`;
const region = (field: string) => `CASE WHEN upper(en.data->>'${field}') ~ ${SPLIT_CODE} THEN upper(en.data->>'${field}') ELSE '${OTHER}' END`;
/** The currency group of a currency expression. */
export const currencyGroup = (currency: string) => `CASE WHEN ${currency} ~ '^[A-Z]{3}$' THEN ${currency} ELSE '${OTHER}' END`;
/** The group of a player (alias `en`) by country or jurisdiction. */
export const REGION_GROUPS = { country: region('country'), jurisdiction: region('jurisdiction') };
const GROUPS: Record<SplitDimension, string> = { ...REGION_GROUPS, currency: currencyGroup(CURRENCY) };

/**
 * The rows of the CTEs `figures` and `ftd` (by key and currency) merged, most GGR first: both paths end with it. A
 * group is listed when one of its figures is not zero (a player with only a failed deposit in the range adds none, and
 * the rollups keep a group's days at zero once its players have moved or been erased).
 */
export const SPLIT_ROWS = `SELECT * FROM (
    SELECT coalesce(f.key, t.key) AS key, coalesce(f.currency, t.currency) AS currency, coalesce(f.active_players, 0) AS active_players,
           coalesce(f.depositing_players, 0) AS depositing_players, coalesce(f.deposits, 0) AS deposits,
           coalesce(f.withdrawals, 0) AS withdrawals, coalesce(f.ggr, 0) AS ggr, coalesce(t.ftd_count, 0) AS ftd_count
      FROM figures f FULL JOIN ftd t ON t.key = f.key AND t.currency = f.currency
  ) r
   WHERE active_players <> 0 OR depositing_players <> 0 OR deposits <> 0 OR withdrawals <> 0 OR ggr <> 0 OR ftd_count <> 0
   ORDER BY ggr DESC, key, currency`;

/**
 * The range's figures split by the player's country or jurisdiction (in one currency) or by currency (each its own
 * row, never summed): active and depositing players, completed deposits and withdrawals, GGR and FTDs (docs/analytics.md
 * "Splits"). Ordered by GGR (descending), then key.
 */
export async function splitFigures(db: Db, scope: AnalyticsScope, range: DayRange, by: SplitDimension): Promise<SplitRow[]> {
  const group = GROUPS[by];
  const inCurrency = by === 'currency' ? 'true' : `${CURRENCY} = :currency`;
  const result = await db.raw(
    `WITH firsts AS (
       ${firstDeposits(`e.occurred_at < ${dayAfter('end')}`, `${group} AS key`)}
     ), ftd AS (
       SELECT f.key, ${by === 'currency' ? 'f.key' : 'f.currency'} AS currency, count(*) AS ftd_count FROM firsts f
        WHERE f.occurred_at >= ${dayStart('start')} AND ${by === 'currency' ? 'true' : 'f.currency = :currency'}
        GROUP BY 1, 2
     ), figures AS (
       SELECT ${group} AS key, ${by === 'currency' ? group : ':currency::text'} AS currency,
              count(DISTINCT e.entity_id) FILTER (WHERE ${IS_GAME} OR (${IS_DEPOSIT})) AS active_players,
              count(DISTINCT e.entity_id) FILTER (WHERE ${IS_DEPOSIT}) AS depositing_players,
              coalesce(sum(${amountOf('amount')}) FILTER (WHERE ${IS_DEPOSIT}), 0) AS deposits,
              coalesce(sum(${amountOf('amount')}) FILTER (WHERE ${IS_WITHDRAWAL}), 0) AS withdrawals,
              coalesce(sum(${amountOf('bet_amount')} - ${amountOf('win_amount')}) FILTER (WHERE ${IS_GAME}), 0) AS ggr
         FROM ${PLAYER_EVENTS} AND ${IN_RANGE} AND ${inCurrency}
        GROUP BY 1, 2
     )
     ${SPLIT_ROWS}`,
    { operatorId: scope.operatorId, reporting: scope.reportingCurrency, currency: scope.currency, start: range.start, end: range.end },
  );
  return splitRowsOf(result.rows);
}

export function splitRowsOf(rows: Array<Record<string, unknown>>): SplitRow[] {
  return rows.map((row) => ({
    key: String(row.key),
    currency: String(row.currency),
    active_players: Number(row.active_players),
    depositing_players: Number(row.depositing_players),
    deposits: Number(row.deposits),
    withdrawals: Number(row.withdrawals),
    ggr: Number(row.ggr),
    ftd_count: Number(row.ftd_count),
  }));
}
