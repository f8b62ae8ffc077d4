import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { ACTIVE, DEPOSITED } from './analyticsRollupRegions';
import { currencyGroup, SPLIT_ROWS, splitRowsOf, type SplitDimension, type SplitRow } from './analyticsSplits';
import type { AnalyticsScope } from './analyticsTypes';

const IN_RANGE = 'day BETWEEN CAST(:start AS date) AND CAST(:end AS date)';
/** A series' players active in the range: its pairs with a day in the range and the previous day before it. */
const FIRST_IN_RANGE = `${IN_RANGE} AND prev_day < CAST(:start AS date)`;

/** The range's FTDs per group (`key`) and currency (`currency`) of the region days of `dimension` in `inCurrency`. */
const ftdBy = (key: string, currency: string, dimension: string, inCurrency: string) => `SELECT ${key} AS key, ${currency} AS currency, sum(ftds) AS ftd_count
    FROM analytics_region_days
   WHERE operator_id = :operatorId AND dimension = ${dimension} AND ${inCurrency} AND ${IN_RANGE}
   GROUP BY 1, 2`;

/** By country or jurisdiction in one currency: the region days' money and FTDs, the region gaps' active and depositing players. */
const BY_REGION = `WITH gaps AS (
    SELECT key, sum(players) FILTER (WHERE series = :active) AS active_players, sum(players) FILTER (WHERE series = :deposited) AS depositing_players
      FROM analytics_region_gaps
     WHERE operator_id = :operatorId AND dimension = :by AND series IN (:active, :deposited) AND ${FIRST_IN_RANGE}
     GROUP BY 1
  ), money AS (
    SELECT key, sum(deposits) AS deposits, sum(withdrawals) AS withdrawals, sum(ggr) AS ggr
      FROM analytics_region_days
     WHERE operator_id = :operatorId AND dimension = :by AND currency = :currency AND ${IN_RANGE}
     GROUP BY 1
  ), figures AS (
    SELECT coalesce(m.key, g.key) AS key, CAST(:currency AS text) AS currency, coalesce(g.active_players, 0) AS active_players,
           coalesce(g.depositing_players, 0) AS depositing_players, m.deposits, m.withdrawals, m.ggr
      FROM money m FULL JOIN gaps g ON g.key = m.key
  ), ftd AS (
    ${ftdBy('key', 'CAST(:currency AS text)', ':by', 'currency = :currency')}
  )
  ${SPLIT_ROWS}`;

/**
 * By currency group: the daily money, the two series of each group (`analytics_player_gaps`), and the FTDs of the
 * country region days (every kept player is in one country group).
 */
const BY_CURRENCY = `WITH gaps AS (
    SELECT substr(series, ${ACTIVE.length + 1}) AS key, sum(players) AS active_players, 0 AS depositing_players
      FROM analytics_player_gaps WHERE operator_id = :operatorId AND series LIKE '${ACTIVE}%' AND ${FIRST_IN_RANGE} GROUP BY 1
    UNION ALL
    SELECT substr(series, ${DEPOSITED.length + 1}), 0, sum(players)
      FROM analytics_player_gaps WHERE operator_id = :operatorId AND series LIKE '${DEPOSITED}%' AND ${FIRST_IN_RANGE} GROUP BY 1
  ), money AS (
    SELECT ${currencyGroup('currency')} AS key, sum(deposits) AS deposits, sum(withdrawals) AS withdrawals, sum(ggr) AS ggr
      FROM analytics_daily WHERE operator_id = :operatorId AND ${IN_RANGE} GROUP BY 1
  ), figures AS (
    SELECT coalesce(m.key, g.key) AS key, coalesce(m.key, g.key) AS currency, coalesce(g.active_players, 0) AS active_players,
           coalesce(g.depositing_players, 0) AS depositing_players, m.deposits, m.withdrawals, m.ggr
      FROM money m FULL JOIN (SELECT key, sum(active_players) AS active_players, sum(depositing_players) AS depositing_players FROM gaps GROUP BY 1) g
        ON g.key = m.key
  ), ftd AS (
    ${ftdBy(currencyGroup('currency'), currencyGroup('currency'), `'country'`, 'true')}
  )
  ${SPLIT_ROWS}`;

/**
 * The splits from the rollups, same definitions as `splitFigures` (the raw path). By country or jurisdiction: money
 * from `analytics_region_days` and active and depositing players from the gaps of the currency group's two series per
 * group (`analytics_region_gaps`), under the key each player's days are kept under — the country or jurisdiction they
 * have now, moved by the pass after a change (analyticsRollupRegions.ts). By currency: `analytics_daily` and the two
 * series' gaps. FTDs from the region days' `ftds`, kept under the same keys. What it reads grows with the range's days
 * and groups, never with the players, their first deposits or their events.
 */
export async function viewSplitFigures(db: Db, scope: AnalyticsScope, range: DayRange, by: SplitDimension): Promise<SplitRow[]> {
  const sql = by === 'currency' ? BY_CURRENCY : BY_REGION;
  const result = await db.raw(sql, {
    operatorId: scope.operatorId,
    currency: scope.currency,
    start: range.start,
    end: range.end,
    by,
    active: ACTIVE + scope.currency,
    deposited: DEPOSITED + scope.currency,
  });
  return splitRowsOf(result.rows);
}
