import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { currencyGroup, REGION_GROUPS, SPLIT_ROWS, splitRowsOf, type SplitDimension, type SplitRow } from './analyticsSplits';
import type { AnalyticsScope } from './analyticsTypes';

/** The range's rows of a per-player rollup (alias `r`) of the operator's live players (alias `en`). */
const LIVE_PLAYERS = `JOIN entities en ON en.id = r.entity_id AND en.operator_id = r.operator_id AND en.deleted_at IS NULL AND en.entity_type = 'player'
  WHERE r.operator_id = :operatorId AND r.day BETWEEN CAST(:start AS date) AND CAST(:end AS date)`;

/**
 * The splits from the rollups, same definitions as `splitFigures` (the raw path): each player's days of the range in
 * `analytics_player_days` summed to one row per player and group (a player is active with a round or a completed
 * deposit, depositing with the latter), grouped by the player's country or jurisdiction as it stands, or by currency;
 * FTDs from `analytics_first_deposits`. What it reads grows with the players active in the range, not with their events.
 */
export async function viewSplitFigures(db: Db, scope: AnalyticsScope, range: DayRange, by: SplitDimension): Promise<SplitRow[]> {
  const group = by === 'currency' ? currencyGroup('r.currency') : REGION_GROUPS[by];
  const inCurrency = by === 'currency' ? 'true' : 'r.currency = :currency';
  const result = await db.raw(
    `WITH players AS (
       SELECT ${group} AS key, bool_or(r.played OR r.deposited) AS active, bool_or(r.deposited) AS depositing,
              sum(r.deposits) AS deposits, sum(r.withdrawals) AS withdrawals, sum(r.ggr) AS ggr
         FROM analytics_player_days r ${LIVE_PLAYERS} AND ${inCurrency}
        GROUP BY r.entity_id, 1
     ), figures AS (
       SELECT key, ${by === 'currency' ? 'key' : ':currency::text'} AS currency, count(*) FILTER (WHERE active) AS active_players,
              count(*) FILTER (WHERE depositing) AS depositing_players, sum(deposits) AS deposits, sum(withdrawals) AS withdrawals, sum(ggr) AS ggr
         FROM players GROUP BY 1, 2
     ), ftd AS (
       SELECT ${group} AS key, ${by === 'currency' ? group : ':currency::text'} AS currency, count(*) AS ftd_count
         FROM analytics_first_deposits r ${LIVE_PLAYERS} AND ${inCurrency}
        GROUP BY 1, 2
     )
     ${SPLIT_ROWS}`,
    { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end },
  );
  return splitRowsOf(result.rows);
}
