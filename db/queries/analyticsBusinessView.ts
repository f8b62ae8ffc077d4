import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { figuresOf, TRANSACTION_STATUSES, type BusinessFigures } from './analyticsBusiness';
import { playedSeries } from './analyticsRollupDistinct';
import { dayAfter, dayStart } from './analyticsSql';
import type { AnalyticsScope } from './analyticsTypes';

const DAYS = `day BETWEEN CAST(:start AS date) AND CAST(:end AS date)`;
const OF_SCOPE = `operator_id = :operatorId AND currency = :currency AND ${DAYS}`;

const flowColumns = (type: 'deposit' | 'withdrawal') =>
  [
    `sum(amount) FILTER (WHERE type = '${type}' AND status = 'completed') AS ${type}_amount`,
    ...TRANSACTION_STATUSES.map((status) => `count(*) FILTER (WHERE type = '${type}' AND status = '${status}') AS ${type}_${status}`),
  ].join(',\n');

/**
 * The business figures from the rollups, same definitions as `businessFigures` (the raw path): transactions from
 * `analytics_transactions` (each id once, at its latest status in the range), GGR from `analytics_daily`, players who
 * played from the kept gaps of their played series (analyticsRollupDistinct.ts: each counted once, on their first day in
 * the range), first deposits from `analytics_first_deposits` (a player's FTD falls in the
 * range exactly when it is their first completed deposit ever). Registrations are read from the players as on the raw path.
 */
export async function viewBusinessFigures(db: Db, scope: AnalyticsScope, range: DayRange): Promise<BusinessFigures> {
  const result = await db.raw(
    `WITH tx AS (
       SELECT DISTINCT ON (tx_key) entity_id, type, status, amount FROM analytics_transactions
        WHERE ${OF_SCOPE} ORDER BY tx_key, occurred_at DESC, created_at DESC, event_id DESC
     ), flows AS (
       SELECT ${flowColumns('deposit')}, ${flowColumns('withdrawal')},
              count(DISTINCT entity_id) FILTER (WHERE type = 'deposit' AND status = 'completed') AS depositing_players
         FROM tx
     ), registered AS (
       SELECT r.id FROM entities r
        WHERE r.operator_id = :operatorId AND r.entity_type = 'player' AND r.created_at >= ${dayStart('start')} AND r.created_at < ${dayAfter('end')}
     )
     SELECT flows.*,
            (SELECT sum(ggr) FROM analytics_daily WHERE ${OF_SCOPE}) AS ggr,
            (SELECT sum(players) FROM analytics_player_gaps
              WHERE operator_id = :operatorId AND series = ${playedSeries(':currency')} AND ${DAYS} AND prev_day < CAST(:start AS date)) AS active_players,
            (SELECT count(*) FROM registered) AS registrations,
            (SELECT count(*) FROM registered r JOIN analytics_first_deposits f ON f.operator_id = :operatorId AND f.entity_id = r.id
              WHERE f.currency = :currency AND f.occurred_at < ${dayAfter('end')}) AS converted_players,
            f.ftd_count, f.ftd_amount
       FROM flows, (SELECT count(*) AS ftd_count, sum(amount) AS ftd_amount FROM analytics_first_deposits WHERE ${OF_SCOPE}) f`,
    { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end },
  );
  return figuresOf(result.rows[0] ?? {});
}
