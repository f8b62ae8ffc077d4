import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { TOTAL_PLAYERS } from './analyticsPlayerCount';
import { amountOf, BUCKETS, bucketOf, CURRENCY, IN_RANGE, IS_DEPOSIT, IS_GAME, IS_WITHDRAWAL, OCCURRED, PLAYER_EVENTS } from './analyticsSql';
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

const bindingsOf = (scope: AnalyticsScope) => ({ operatorId: scope.operatorId, reporting: scope.reportingCurrency, currency: scope.currency });

/** KPIs straight from the event table: money over `range`, activity over `activeSince` (the last 7 days). */
export async function rawKpis(db: Db, scope: AnalyticsScope, range: DayRange, activeSince: DayRange): Promise<Kpis> {
  const result = await db.raw(
    `WITH ranged AS (
       SELECT e.entity_id, e.event_type, e.data, ${CURRENCY} AS currency FROM ${PLAYER_EVENTS} AND ${IN_RANGE}
     ), money AS (
       SELECT sum(CASE WHEN ${IS_GAME} THEN ${amountOf('bet_amount')} - ${amountOf('win_amount')} ELSE 0 END) AS total_ggr,
              sum(CASE WHEN ${IS_DEPOSIT} THEN ${amountOf('amount')} ELSE 0 END) AS total_deposits,
              sum(CASE WHEN ${IS_WITHDRAWAL} THEN ${amountOf('amount')} ELSE 0 END) AS total_withdrawals,
              count(DISTINCT e.entity_id) FILTER (WHERE ${IS_DEPOSIT}) AS depositing_players
         FROM ranged e WHERE e.currency = :currency
     )
     SELECT money.*, ${TOTAL_PLAYERS} AS total_players,
            (SELECT count(DISTINCT e.entity_id) FROM ${PLAYER_EVENTS}
               AND ${OCCURRED} >= CAST(:activeStart AS date)::timestamp AT TIME ZONE 'UTC') AS active_players_today
       FROM money`,
    { ...bindingsOf(scope), start: range.start, end: range.end, activeStart: activeSince.start },
  );
  return kpisOf(result.rows[0] ?? {});
}

/** Revenue buckets straight from the event table; every bucket of the range is present. */
export async function rawRevenue(db: Db, scope: AnalyticsScope, range: DayRange, unit: Unit): Promise<RevenueRow[]> {
  const result = await db.raw(
    `WITH buckets AS (${BUCKETS}),
     ranged AS (
       SELECT ${bucketOf(`${OCCURRED} AT TIME ZONE 'UTC'`)} AS bucket, e.entity_id, e.event_type, e.data, ${CURRENCY} AS currency
         FROM ${PLAYER_EVENTS} AND ${IN_RANGE}
     ), agg AS (
       SELECT e.bucket,
              sum(CASE WHEN ${IS_GAME} THEN ${amountOf('bet_amount')} - ${amountOf('win_amount')} ELSE 0 END) FILTER (WHERE e.currency = :currency) AS total_ggr,
              sum(CASE WHEN ${IS_DEPOSIT} THEN ${amountOf('amount')} ELSE 0 END) FILTER (WHERE e.currency = :currency) AS total_deposits,
              count(DISTINCT e.entity_id) FILTER (WHERE ${IS_DEPOSIT} AND e.currency = :currency) AS depositing_players,
              count(DISTINCT e.entity_id) AS active_players
         FROM ranged e GROUP BY e.bucket
     )
     SELECT to_char(b.bucket, 'YYYY-MM-DD') AS date, a.total_ggr, a.total_deposits, a.depositing_players, a.active_players
       FROM buckets b LEFT JOIN agg a ON a.bucket = b.bucket ORDER BY b.bucket`,
    { ...bindingsOf(scope), start: range.start, end: range.end, unit },
  );
  return result.rows.map(revenueRowOf);
}

/** Game rows over `range` straight from the event table, most played first. */
export async function rawGames(db: Db, scope: AnalyticsScope, range: DayRange, page: { limit: number; offset: number }): Promise<GameRow[]> {
  const result = await db.raw(
    `SELECT coalesce(e.data->>'game_name', e.data->>'game_id') AS game_name, count(*) AS rounds,
            sum(${amountOf('bet_amount')}) AS bets, sum(${amountOf('win_amount')}) AS wins, count(DISTINCT e.entity_id) AS unique_players
       FROM ${PLAYER_EVENTS} AND ${IS_GAME} AND ${IN_RANGE}
        AND coalesce(e.data->>'game_name', e.data->>'game_id') IS NOT NULL AND ${CURRENCY} = :currency
      GROUP BY 1 ORDER BY rounds DESC, game_name LIMIT :limit OFFSET :offset`,
    { ...bindingsOf(scope), start: range.start, end: range.end, limit: page.limit, offset: page.offset },
  );
  return result.rows.map(gameRowOf);
}

/** All-time provider rows straight from the event table. */
export async function rawProviders(db: Db, scope: AnalyticsScope): Promise<ProviderRow[]> {
  const result = await db.raw(
    `SELECT e.data->>'provider' AS provider, count(*) AS volume, sum(${amountOf('amount')}) AS total_amount,
            count(*) FILTER (WHERE coalesce(e.data->>'status', 'completed') = 'completed') AS completed,
            sum(CASE WHEN ${IS_DEPOSIT} THEN ${amountOf('amount')} ELSE 0 END) AS deposits,
            sum(CASE WHEN ${IS_WITHDRAWAL} THEN ${amountOf('amount')} ELSE 0 END) AS withdrawals
       FROM ${PLAYER_EVENTS} AND e.event_type = 'transaction' AND e.data->>'provider' IS NOT NULL AND ${CURRENCY} = :currency
      GROUP BY 1 ORDER BY volume DESC, provider`,
    bindingsOf(scope),
  );
  return result.rows.map(providerRowOf);
}
