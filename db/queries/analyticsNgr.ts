import type { DayRange } from '../../core/analyticsParams';
import type { NgrPart } from '../../core/ngrDefinition';
import type { Db } from '../knex';
import { periodsOf } from './analyticsPeriods';
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
export async function ngrParts(db: Db, scope: AnalyticsScope, ranges: DayRange[], listed: string[]): Promise<NgrPart[][]> {
  const parts: NgrPart[][] = [];
  // One range after another: `db` is a figure read's transaction, one connection (see inTurn in analyticsRead.ts).
  for (const range of ranges) parts.push(await rangeParts(db, scope, range, listed));
  return parts;
}

async function rangeParts(db: Db, scope: AnalyticsScope, range: DayRange, listed: string[]): Promise<NgrPart[]> {
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
 * jurisdiction a player has, not the one they had when they played), so a read sums a few rows per day, every range
 * in one statement. A group is listed, as there, when its GGR or bonus cost is not zero.
 */
export async function viewNgrParts(db: Db, scope: AnalyticsScope, ranges: DayRange[], listed: string[]): Promise<NgrPart[][]> {
  const periods = periodsOf(ranges);
  const result = await db.raw(
    `SELECT p.i, CASE WHEN jurisdiction = ANY(:listed) THEN jurisdiction ELSE '' END AS jurisdiction,
            coalesce(sum(ggr), 0) AS ggr, coalesce(sum(bonus), 0) AS bonus_cost
       FROM ${periods.sql}
       JOIN analytics_jurisdiction_days d
         ON d.operator_id = :operatorId AND d.currency = :currency AND d.day BETWEEN p.first_day AND p.last_day
      GROUP BY 1, 2 HAVING sum(ggr) <> 0 OR sum(bonus) <> 0`,
    { operatorId: scope.operatorId, currency: scope.currency, listed, ...periods.bindings },
  );
  const rows = result.rows as Array<Record<string, unknown>>;
  return ranges.map((_, i) => partsOf(rows.filter((row) => Number(row.i) === i)));
}

function partsOf(rows: Array<Record<string, unknown>>): NgrPart[] {
  return rows.map((row) => ({
    jurisdiction: String(row.jurisdiction),
    ggr: Number(row.ggr),
    bonusCost: Number(row.bonus_cost),
  }));
}
