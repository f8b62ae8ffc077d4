import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { BUCKETS, bucketOf } from './analyticsSql';
import { TOTAL_PLAYERS } from './analyticsPlayerCount';
import {
  gameRowOf,
  kpisOf,
  providerRowOf,
  revenueRowOf,
  type AnalyticsScope,
  type GameRow,
  type Kpis,
  type ProviderRow,
  type RevenueRow,
  type Unit,
} from './analyticsTypes';

/**
 * Reads of the per-operator rollups (db/queries/analyticsRollup.ts), same definitions as the raw path
 * (analyticsRaw.ts). The names stay `view*`: the handlers choose this path when a rollup pass has completed.
 */
const DAYS = `day BETWEEN CAST(:start AS date) AND CAST(:end AS date)`;

/**
 * A gaps row is a player's first day in a range starting on `from` when their previous day is before `from`
 * (analyticsRollupDistinct.ts): summing those rows over the range counts each player once, however many days they were in.
 */
const firstIn = (from: string): string => `prev_day < ${from}`;

/** KPIs from the rollups (same definitions as `rawKpis`); distinct players from `analytics_player_gaps`. */
export async function viewKpis(db: Db, scope: AnalyticsScope, range: DayRange, activeSince: DayRange): Promise<Kpis> {
  const result = await db.raw(
    `SELECT m.total_ggr, m.total_deposits, m.total_withdrawals,
            (SELECT sum(players) FROM analytics_player_gaps
              WHERE operator_id = :operatorId AND series = :currency AND ${DAYS} AND ${firstIn('CAST(:start AS date)')}) AS depositing_players,
            (SELECT sum(players) FROM analytics_player_gaps
              WHERE operator_id = :operatorId AND series = '' AND day >= CAST(:activeStart AS date) AND ${firstIn('CAST(:activeStart AS date)')}) AS active_players_today,
            ${TOTAL_PLAYERS} AS total_players
       FROM (SELECT sum(ggr) AS total_ggr, sum(deposits) AS total_deposits, sum(withdrawals) AS total_withdrawals
               FROM analytics_daily WHERE operator_id = :operatorId AND currency = :currency AND ${DAYS}) m`,
    { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end, activeStart: activeSince.start },
  );
  return kpisOf(result.rows[0] ?? {});
}

/** A bucket's first day within the range: an edge bucket counts from the range's start (as the raw path does). */
const BUCKET_FROM = `greatest(${bucketOf('day')}, CAST(:start AS date))`;

/** Revenue buckets from the rollups (same definitions as `rawRevenue`). */
export async function viewRevenue(db: Db, scope: AnalyticsScope, range: DayRange, unit: Unit): Promise<RevenueRow[]> {
  const result = await db.raw(
    `WITH buckets AS (${BUCKETS}),
     money AS (
       SELECT ${bucketOf('day')} AS bucket, sum(ggr) AS total_ggr, sum(deposits) AS total_deposits
         FROM analytics_daily WHERE operator_id = :operatorId AND currency = :currency AND ${DAYS} GROUP BY 1
     ), players AS (
       SELECT ${bucketOf('day')} AS bucket,
              sum(players) FILTER (WHERE series = '' AND ${firstIn(BUCKET_FROM)}) AS active_players,
              sum(players) FILTER (WHERE series = :currency AND ${firstIn(BUCKET_FROM)}) AS depositing_players
         FROM analytics_player_gaps WHERE operator_id = :operatorId AND series IN ('', :currency) AND ${DAYS} GROUP BY 1
     )
     SELECT to_char(b.bucket, 'YYYY-MM-DD') AS date, m.total_ggr, m.total_deposits, p.depositing_players, p.active_players
       FROM buckets b LEFT JOIN money m ON m.bucket = b.bucket LEFT JOIN players p ON p.bucket = b.bucket ORDER BY b.bucket`,
    { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end, unit },
  );
  return result.rows.map(revenueRowOf);
}

/** All-time game rows from the rollup, most played first. */
export async function viewGames(db: Db, scope: AnalyticsScope, page: { limit: number; offset: number }): Promise<GameRow[]> {
  const rows = await db('analytics_games')
    .where({ operator_id: scope.operatorId, currency: scope.currency })
    .where('rounds', '>', 0)
    .orderBy([
      { column: 'rounds', order: 'desc' },
      { column: 'game_name', order: 'asc' },
    ])
    .limit(page.limit)
    .offset(page.offset)
    .select('game_name', 'rounds', 'bets', 'wins', 'unique_players');
  return rows.map(gameRowOf);
}

/** All-time provider rows from the rollup. */
export async function viewProviders(db: Db, scope: AnalyticsScope): Promise<ProviderRow[]> {
  const rows = await db('analytics_providers')
    .where({ operator_id: scope.operatorId, currency: scope.currency })
    .where('volume', '>', 0)
    .orderBy([
      { column: 'volume', order: 'desc' },
      { column: 'provider', order: 'asc' },
    ])
    .select('provider', 'volume', 'total_amount', 'completed', 'deposits', 'withdrawals');
  return rows.map(providerRowOf);
}
