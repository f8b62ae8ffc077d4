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
    ...TRANSACTION_STATUSES.map((status) => `sum(txs) FILTER (WHERE type = '${type}' AND status = '${status}') AS ${type}_${status}`),
  ].join(',\n');

/**
 * The business figures from the rollups, same definitions as `businessFigures` (the raw path): transactions from
 * `analytics_transaction_days` (each id once, at its latest status in the range: its row whose next day is after the
 * range, analyticsRollupTransactions.ts), GGR from `analytics_daily`, players who played or deposited from the kept gaps
 * of their played and deposit series (analyticsRollupDistinct.ts: each counted once, on their first day in the range),
 * first deposits from `analytics_first_deposits` (a player's FTD falls in the
 * range exactly when it is their first completed deposit ever), converted players from `analytics_conversions` (per
 * registration day, FTD currency and FTD day). Registrations are counted from the players as on the raw path: an
 * index-only count of `entities_operator_type_created_idx`, no player row read.
 */
export async function viewBusinessFigures(db: Db, scope: AnalyticsScope, range: DayRange): Promise<BusinessFigures> {
  const result = await db.raw(
    `WITH flows AS (
       SELECT ${flowColumns('deposit')}, ${flowColumns('withdrawal')} FROM analytics_transaction_days WHERE ${OF_SCOPE} AND next_day > CAST(:end AS date)
     )
     SELECT flows.*,
            (SELECT sum(ggr) FROM analytics_daily WHERE ${OF_SCOPE}) AS ggr,
            (SELECT sum(players) FROM analytics_player_gaps
              WHERE operator_id = :operatorId AND series = ${playedSeries(':currency')} AND ${DAYS} AND prev_day < CAST(:start AS date)) AS active_players,
            (SELECT sum(players) FROM analytics_player_gaps
              WHERE operator_id = :operatorId AND series = :currency AND ${DAYS} AND prev_day < CAST(:start AS date)) AS depositing_players,
            (SELECT count(*) FROM entities r
              WHERE r.operator_id = :operatorId AND r.entity_type = 'player' AND r.created_at >= ${dayStart('start')} AND r.created_at < ${dayAfter('end')}) AS registrations,
            (SELECT sum(players) FROM analytics_conversions
              WHERE operator_id = :operatorId AND registered_day BETWEEN CAST(:start AS date) AND CAST(:end AS date)
                AND currency = :currency AND ftd_day <= CAST(:end AS date)) AS converted_players,
            f.ftd_count, f.ftd_amount
       FROM flows, (SELECT count(*) AS ftd_count, sum(amount) AS ftd_amount FROM analytics_first_deposits WHERE ${OF_SCOPE}) f`,
    { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end },
  );
  return figuresOf(result.rows[0] ?? {});
}
