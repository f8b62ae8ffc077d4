import type { DayRange } from '../../core/analyticsParams';
import { inTurn } from './analyticsRead';
import type { Db } from '../knex';
import { healthAnswer, type GameHealth, type GameHealthBy, type GameHealthRow } from './analyticsGameHealth';
import type { AnalyticsScope } from './analyticsTypes';

const COLUMNS = `sum(rounds) AS rounds, count(DISTINCT entity_id) AS players, sum(bets) AS turnover, sum(wins) AS wins,
  sum(bonus_bets) AS bonus_bets, sum(bonus_wins) AS bonus_wins`;
const OF_SCOPE = `operator_id = :operatorId AND currency = :currency AND day BETWEEN CAST(:start AS date) AND CAST(:end AS date)`;

/**
 * `gameHealth` from the rollups, same definitions as the raw path: each player's rounds per day, game and provider
 * (`analytics_game_days`) summed over the range, players counted once per group.
 */
export async function viewGameHealth(
  db: Db,
  scope: AnalyticsScope,
  range: DayRange,
  by: GameHealthBy,
  page: { limit: number; offset: number },
): Promise<{ totals: GameHealth; rows: GameHealthRow[]; total_rows: number }> {
  const key = by === 'game' ? 'game' : 'provider';
  const bindings = { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end };
  const [totals, rows] = await inTurn(
    () =>
      db.raw(
        `SELECT ${COLUMNS}, count(DISTINCT ${key}) + ${by === 'provider' ? `(bool_or(${key} IS NULL))::int` : '0'} AS total_rows
           FROM analytics_game_days WHERE ${OF_SCOPE}`,
        bindings,
      ),
    () =>
      db.raw(
        `SELECT ${key} AS name, ${COLUMNS} FROM analytics_game_days WHERE ${OF_SCOPE}${by === 'game' ? ' AND game IS NOT NULL' : ''}
          GROUP BY 1 ORDER BY turnover DESC, name NULLS LAST LIMIT :limit OFFSET :offset`,
        { ...bindings, limit: page.limit, offset: page.offset },
      ),
  );
  return healthAnswer(totals.rows[0] as Record<string, unknown>, rows.rows as Array<Record<string, unknown>>);
}
