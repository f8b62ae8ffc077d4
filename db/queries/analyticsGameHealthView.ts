import type { DayRange } from '../../core/analyticsParams';
import { inTurn } from './analyticsRead';
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
 * `gameHealth` from the rollups, same definitions as the raw path: the sums per day, game and provider of all players
 * (`analytics_game_health_days`) over the range — a group exists with a round in it —, the players of the whole range
 * from the played series' kept gaps, and the distinct players of each of the page's groups from the kept gaps of its
 * game or provider series: a few rows per day, whatever the range's rounds.
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
  const players = new Map<string | null, number>();
  if (pageRows.length > 0) {
    const counted = await db.raw(
      `SELECT n.name, (SELECT sum(players) FROM analytics_player_gaps
                        WHERE operator_id = :operatorId AND series = ${roundSeries(by, 'CAST(:currency AS text)', 'n.name')} AND ${DAYS} AND prev_day < CAST(:start AS date)) AS players
         FROM jsonb_array_elements_text(CAST(:names AS jsonb)) n(name)`,
      { ...bindings, names: JSON.stringify(pageRows.map((row) => row.name)) },
    );
    for (const row of counted.rows as Array<{ name: string | null; players: string | null }>) players.set(row.name, Number(row.players ?? 0));
  }
  return healthAnswer(
    totals.rows[0] as Record<string, unknown>,
    pageRows.map((row) => ({ ...row, players: players.get(row.name as string | null) ?? 0 })),
  );
}
