import type { DayRange } from '../../core/analyticsParams';
import type { NgrPart } from '../../core/ngrDefinition';
import type { Db } from '../knex';
import { amountOf, CURRENCY, IN_RANGE, IS_BONUS, IS_GAME, PLAYER_EVENTS } from './analyticsSql';
import type { AnalyticsScope } from './analyticsTypes';

/**
 * A player's (alias `en`) NGR group: their jurisdiction upper-cased when the definition lists it (binding `listed`),
 * `''` otherwise, so a player's free text never becomes a group of its own.
 */
export const NGR_JURISDICTION = `CASE WHEN upper(en.data->>'jurisdiction') = ANY(:listed) THEN upper(en.data->>'jurisdiction') ELSE '' END`;

/**
 * GGR and bonus cost of `range` in one currency per player jurisdiction, grouped only by the jurisdictions `listed`
 * (`NGR_JURISDICTION`); a group is listed when its GGR or bonus cost is not zero (one that nets to nothing owes
 * nothing). Bonus cost = Σ amount of completed `transaction` events of type `bonus` (spec 2.13).
 */
export async function ngrParts(db: Db, scope: AnalyticsScope, range: DayRange, listed: string[]): Promise<NgrPart[]> {
  const result = await db.raw(
    `SELECT ${NGR_JURISDICTION} AS jurisdiction,
            coalesce(sum(${amountOf('bet_amount')} - ${amountOf('win_amount')}) FILTER (WHERE ${IS_GAME}), 0) AS ggr,
            coalesce(sum(${amountOf('amount')}) FILTER (WHERE ${IS_BONUS}), 0) AS bonus_cost
       FROM ${PLAYER_EVENTS} AND ${IN_RANGE} AND ${CURRENCY} = :currency AND ((${IS_GAME}) OR (${IS_BONUS}))
      GROUP BY 1 HAVING coalesce(sum(${amountOf('bet_amount')} - ${amountOf('win_amount')}) FILTER (WHERE ${IS_GAME}), 0) <> 0
                     OR coalesce(sum(${amountOf('amount')}) FILTER (WHERE ${IS_BONUS}), 0) <> 0`,
    { operatorId: scope.operatorId, reporting: scope.reportingCurrency, currency: scope.currency, start: range.start, end: range.end, listed },
  );
  return partsOf(result.rows);
}

/**
 * {@link ngrParts} from the rollups: `analytics_jurisdiction_days` (analyticsRollupJurisdictions.ts) holds each day's
 * GGR and bonus cost per currency and player jurisdiction as it stood at the last pass (as on the raw path, the
 * jurisdiction a player has, not the one they had when they played), so a read sums a few rows per day. A group is
 * listed, as there, when its GGR or bonus cost is not zero.
 */
export async function viewNgrParts(db: Db, scope: AnalyticsScope, range: DayRange, listed: string[]): Promise<NgrPart[]> {
  const result = await db.raw(
    `SELECT CASE WHEN jurisdiction = ANY(:listed) THEN jurisdiction ELSE '' END AS jurisdiction,
            coalesce(sum(ggr), 0) AS ggr, coalesce(sum(bonus), 0) AS bonus_cost
       FROM analytics_jurisdiction_days
      WHERE operator_id = :operatorId AND currency = :currency AND day BETWEEN CAST(:start AS date) AND CAST(:end AS date)
      GROUP BY 1 HAVING sum(ggr) <> 0 OR sum(bonus) <> 0`,
    { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end, listed },
  );
  return partsOf(result.rows);
}

function partsOf(rows: Array<Record<string, unknown>>): NgrPart[] {
  return rows.map((row) => ({
    jurisdiction: String(row.jurisdiction),
    ggr: Number(row.ggr),
    bonusCost: Number(row.bonus_cost),
  }));
}
