import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { figuresOf, TRANSACTION_STATUSES, type BusinessFigures } from './analyticsBusiness';
import { periodsOf } from './analyticsPeriods';
import { playedSeries } from './analyticsRollupDistinct';
import type { AnalyticsScope } from './analyticsTypes';

/** The period's days (alias `p` of `periodsOf`). */
const DAYS = `day BETWEEN p.first_day AND p.last_day`;
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
 * first deposits from the cohort days (`analytics_cohort_days`, analyticsRollupCohorts.ts: the kept first deposits
 * summed per FTD day; a player's FTD falls in the range exactly when it is their first completed deposit ever),
 * converted players from `analytics_conversions` (per registration day, FTD currency and FTD day). Registrations are counted from the players as on the raw path: an
 * index-only count of `entities_operator_type_created_idx`, no player row read. Every range of `ranges` in one
 * statement, answered in their order.
 */
export async function viewBusinessPeriods(db: Db, scope: AnalyticsScope, ranges: DayRange[]): Promise<BusinessFigures[]> {
  const periods = periodsOf(ranges);
  const result = await db.raw(
    `SELECT x.* FROM ${periods.sql} CROSS JOIN LATERAL (
       SELECT flows.*,
              (SELECT sum(ggr) FROM analytics_daily WHERE ${OF_SCOPE}) AS ggr,
              (SELECT sum(players) FROM analytics_player_gaps
                WHERE operator_id = :operatorId AND series = ${playedSeries(':currency')} AND ${DAYS} AND prev_day < p.first_day) AS active_players,
              (SELECT sum(players) FROM analytics_player_gaps
                WHERE operator_id = :operatorId AND series = :currency AND ${DAYS} AND prev_day < p.first_day) AS depositing_players,
              (SELECT count(*) FROM entities r
                WHERE r.operator_id = :operatorId AND r.entity_type = 'player'
                  AND r.created_at >= p.first_day::timestamp AT TIME ZONE 'UTC' AND r.created_at < (p.last_day + 1)::timestamp AT TIME ZONE 'UTC') AS registrations,
              (SELECT sum(players) FROM analytics_conversions
                WHERE operator_id = :operatorId AND registered_day BETWEEN p.first_day AND p.last_day
                  AND currency = :currency AND ftd_day <= p.last_day) AS converted_players,
              f.ftd_count, f.ftd_amount
         FROM (SELECT ${flowColumns('deposit')}, ${flowColumns('withdrawal')}
                 FROM analytics_transaction_days WHERE ${OF_SCOPE} AND next_day > p.last_day) flows,
              (SELECT sum(players) AS ftd_count, sum(ftd_amount) AS ftd_amount FROM analytics_cohort_days
                WHERE operator_id = :operatorId AND currency = :currency AND ftd_day BETWEEN p.first_day AND p.last_day) f
     ) x ORDER BY p.i`,
    { operatorId: scope.operatorId, currency: scope.currency, ...periods.bindings },
  );
  return (result.rows as Array<Record<string, unknown>>).map(figuresOf);
}

/** {@link viewBusinessPeriods} of one range. */
export async function viewBusinessFigures(db: Db, scope: AnalyticsScope, range: DayRange): Promise<BusinessFigures> {
  const [figures] = await viewBusinessPeriods(db, scope, [range]);
  return figures!;
}
