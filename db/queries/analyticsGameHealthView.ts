import type { DayRange } from '../../core/analyticsParams';
import type { Db } from '../knex';
import { healthAnswer, type GameHealth, type GameHealthBy, type GameHealthRow } from './analyticsGameHealth';
import { playedSeries, roundSeries } from './analyticsRollupDistinct';
import type { AnalyticsScope } from './analyticsTypes';

const SUMS = `sum(rounds) AS rounds, sum(bets) AS turnover, sum(wins) AS wins, sum(bonus_bets) AS bonus_bets, sum(bonus_wins) AS bonus_wins`;
const DAYS = `day BETWEEN CAST(:start AS date) AND CAST(:end AS date)`;
const OF_SCOPE = `operator_id = :operatorId AND currency = :currency AND ${DAYS}`;
/** The range's players who played in the currency: the kept gaps of its played series (analyticsRollupDistinct.ts). */
const PLAYERS = `(SELECT sum(players) FROM analytics_player_gaps
  WHERE operator_id = :operatorId AND series = ${playedSeries(':currency')} AND ${DAYS} AND prev_day < CAST(:start AS date))`;

/**
 * `gameHealth` from the rollups, same definitions as the raw path, in one statement over one read of the range's rows
 * of `analytics_game_health_days` (sums per day, game and provider of all players; a group exists with a round in
 * it): the totals and the listed groups from the same per-group sums, the players of the whole range from the played
 * series' kept gaps, and the distinct players of each of the page's groups, after the page is cut, from the kept gaps
 * of its game or provider series: a few rows per day, whatever the range's rounds.
 */
export async function viewGameHealth(
  db: Db,
  scope: AnalyticsScope,
  range: DayRange,
  by: GameHealthBy,
  page: { limit: number; offset: number },
): Promise<{ totals: GameHealth; rows: GameHealthRow[]; total_rows: number }> {
  const key = by === 'game' ? 'game' : 'provider';
  const named = by === 'game' ? ' AND name IS NOT NULL' : '';
  const result = await db.raw(
    `WITH groups AS (
       SELECT ${key} AS name, ${SUMS} FROM analytics_game_health_days WHERE ${OF_SCOPE} GROUP BY 1
     ), listed AS (
       SELECT * FROM groups WHERE rounds > 0${named}
     ), page AS (
       SELECT * FROM listed ORDER BY turnover DESC, name NULLS LAST LIMIT :limit OFFSET :offset
     )
     SELECT sum(rounds) AS rounds, sum(turnover) AS turnover, sum(wins) AS wins, sum(bonus_bets) AS bonus_bets, sum(bonus_wins) AS bonus_wins,
            ${PLAYERS} AS players, (SELECT count(*) FROM listed) AS total_rows,
            (SELECT coalesce(jsonb_agg(to_jsonb(p) || jsonb_build_object('players', coalesce(
                       (SELECT sum(players) FROM analytics_player_gaps
                         WHERE operator_id = :operatorId AND series = ${roundSeries(by, 'CAST(:currency AS text)', 'p.name')} AND ${DAYS}
                           AND prev_day < CAST(:start AS date)), 0))
                     ORDER BY p.turnover DESC, p.name NULLS LAST), '[]'::jsonb) FROM page p) AS page
       FROM groups`,
    { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end, limit: page.limit, offset: page.offset },
  );
  const head = result.rows[0] as Record<string, unknown> & { page: Array<Record<string, unknown>> };
  return healthAnswer(head, head.page);
}
