import type { DayRange } from '../../core/analyticsParams';
import { inTurn } from './analyticsRead';
import type { Db } from '../knex';
import { healthAnswer, type GameHealth, type GameHealthBy, type GameHealthRow } from './analyticsGameHealth';
import { playedSeries } from './analyticsRollupDistinct';
import type { AnalyticsScope } from './analyticsTypes';

const SUMS = `sum(rounds) AS rounds, sum(bets) AS turnover, sum(wins) AS wins, sum(bonus_bets) AS bonus_bets, sum(bonus_wins) AS bonus_wins`;
const DAYS = `day BETWEEN CAST(:start AS date) AND CAST(:end AS date)`;
const OF_SCOPE = `operator_id = :operatorId AND currency = :currency AND ${DAYS}`;
/** The range's players who played in the currency: the kept gaps of its played series (analyticsRollupDistinct.ts). */
const PLAYERS = `(SELECT sum(players) FROM analytics_player_gaps
  WHERE operator_id = :operatorId AND series = ${playedSeries(':currency')} AND ${DAYS} AND prev_day < CAST(:start AS date))`;

/**
 * `gameHealth` from the rollups, same definitions as the raw path: the sums per day, game and provider of all players
 * (`analytics_game_health_days`) over the range — a group exists with a round in it —, the players of the whole range
 * from the played series' kept gaps, and the distinct players of the page's groups only from each player's rounds per
 * day (`analytics_game_days`).
 */
export async function viewGameHealth(
  db: Db,
  scope: AnalyticsScope,
  range: DayRange,
  by: GameHealthBy,
  page: { limit: number; offset: number },
): Promise<{ totals: GameHealth; rows: GameHealthRow[]; total_rows: number }> {
  const key = by === 'game' ? 'game' : 'provider';
  const named = by === 'game' ? ' AND game IS NOT NULL' : '';
  const bindings = { operatorId: scope.operatorId, currency: scope.currency, start: range.start, end: range.end };
  const [totals, rows] = await inTurn(
    () =>
      db.raw(
        `SELECT ${SUMS}, ${PLAYERS} AS players,
                (SELECT count(*) FROM (SELECT ${key} FROM analytics_game_health_days WHERE ${OF_SCOPE}${named} GROUP BY 1 HAVING sum(rounds) > 0) g) AS total_rows
           FROM analytics_game_health_days WHERE ${OF_SCOPE}`,
        bindings,
      ),
    () =>
      db.raw(
        `SELECT ${key} AS name, ${SUMS} FROM analytics_game_health_days WHERE ${OF_SCOPE}${named}
          GROUP BY 1 HAVING sum(rounds) > 0 ORDER BY turnover DESC, name NULLS LAST LIMIT :limit OFFSET :offset`,
        { ...bindings, limit: page.limit, offset: page.offset },
      ),
  );
  const pageRows = rows.rows as Array<Record<string, unknown>>;
  const names = pageRows.map((row) => row.name as string | null);
  const players = new Map<string | null, number>();
  if (names.length > 0) {
    const counted = await db.raw(
      `SELECT ${key} AS name, count(DISTINCT entity_id) AS players FROM analytics_game_days
        WHERE ${OF_SCOPE} AND (${key} = ANY(:names) OR (CAST(:withNull AS boolean) AND ${key} IS NULL)) GROUP BY 1`,
      { ...bindings, names: names.filter((name) => name !== null), withNull: names.includes(null) },
    );
    for (const row of counted.rows as Array<{ name: string | null; players: string }>) players.set(row.name, Number(row.players));
  }
  return healthAnswer(
    totals.rows[0] as Record<string, unknown>,
    pageRows.map((row) => ({ ...row, players: players.get(row.name as string | null) ?? 0 })),
  );
}
