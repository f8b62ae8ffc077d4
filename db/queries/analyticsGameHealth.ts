import type { DayRange } from '../../core/analyticsParams';
import { inTurn } from './analyticsRead';
import type { Db } from '../knex';
import { amountOf, CURRENCY, IN_RANGE, IS_GAME, PLAYER_EVENTS } from './analyticsSql';
import type { AnalyticsScope } from './analyticsTypes';

export type GameHealthBy = 'game' | 'provider';

export interface GameHealth {
  rounds: number;
  players: number;
  /** Σ bet_amount: the stakes, cash and bonus. */
  turnover: number;
  wins: number;
  ggr: number;
  /** wins ÷ turnover (actual RTP), 4 decimals; null without turnover. */
  rtp: number | null;
  /** ggr ÷ turnover (the hold, or margin), 4 decimals; null without turnover. */
  hold: number | null;
  /** GGR on cash stakes: (bet − bonus_bet_amount) − (win − bonus_win_amount). */
  cash_ggr: number;
  /** GGR on bonus stakes: bonus_bet_amount − bonus_win_amount. cash_ggr + bonus_ggr = ggr. */
  bonus_ggr: number;
}

export interface GameHealthRow extends GameHealth {
  /** The game (`game_name`, else `game_id`) or the round's `provider`; null: rounds that name no provider. */
  name: string | null;
}

const KEYS: Record<GameHealthBy, string> = {
  game: `coalesce(e.data->>'game_name', e.data->>'game_id')`,
  provider: `e.data->>'provider'`,
};
const COLUMNS = `count(*) AS rounds, count(DISTINCT e.entity_id) AS players,
  sum(${amountOf('bet_amount')}) AS turnover, sum(${amountOf('win_amount')}) AS wins,
  sum(${amountOf('bonus_bet_amount')}) AS bonus_bets, sum(${amountOf('bonus_win_amount')}) AS bonus_wins`;

/**
 * Game health over `range` in one currency (docs/analytics.md "Game health"): the range's rounds in total and per game
 * or provider, most staked first. Grouping keys are the texts ingest bounds (`ANALYTICS_KEY_LIMITS`).
 */
export async function gameHealth(
  db: Db,
  scope: AnalyticsScope,
  range: DayRange,
  by: GameHealthBy,
  page: { limit: number; offset: number },
): Promise<{ totals: GameHealth; rows: GameHealthRow[]; total_rows: number }> {
  const key = KEYS[by];
  const where = `${PLAYER_EVENTS} AND ${IS_GAME} AND ${IN_RANGE} AND ${CURRENCY} = :currency${by === 'game' ? ` AND ${key} IS NOT NULL` : ''}`;
  const bindings = { operatorId: scope.operatorId, reporting: scope.reportingCurrency, currency: scope.currency, start: range.start, end: range.end };
  const [totals, rows] = await inTurn(
    () =>
      db.raw(
        `SELECT ${COLUMNS}, count(DISTINCT ${key}) + ${by === 'provider' ? `(bool_or(${key} IS NULL))::int` : '0'} AS total_rows FROM ${PLAYER_EVENTS} AND ${IS_GAME} AND ${IN_RANGE} AND ${CURRENCY} = :currency`,
        bindings,
      ),
    () =>
      db.raw(
        `SELECT ${key} AS name, ${COLUMNS} FROM ${where}
        GROUP BY 1 ORDER BY turnover DESC, name NULLS LAST LIMIT :limit OFFSET :offset`,
        { ...bindings, limit: page.limit, offset: page.offset },
      ),
  );
  return healthAnswer(totals.rows[0] as Record<string, unknown>, rows.rows as Array<Record<string, unknown>>);
}

/** The answer of both paths from the totals row (with `total_rows`) and the page's rows. */
export function healthAnswer(
  head: Record<string, unknown>,
  rows: Array<Record<string, unknown>>,
): { totals: GameHealth; rows: GameHealthRow[]; total_rows: number } {
  return {
    totals: healthOf(head),
    rows: rows.map((row) => ({ name: (row.name as string | null) ?? null, ...healthOf(row) })),
    total_rows: Number(head.total_rows ?? 0),
  };
}

const ratio = (part: number, whole: number): number | null => (whole !== 0 ? Number((part / whole).toFixed(4)) : null);

function healthOf(row: Record<string, unknown>): GameHealth {
  const turnover = Number(row.turnover ?? 0);
  const wins = Number(row.wins ?? 0);
  const bonusBets = Number(row.bonus_bets ?? 0);
  const bonusWins = Number(row.bonus_wins ?? 0);
  const ggr = turnover - wins;
  return {
    rounds: Number(row.rounds ?? 0),
    players: Number(row.players ?? 0),
    turnover,
    wins,
    ggr,
    rtp: ratio(wins, turnover),
    hold: ratio(ggr, turnover),
    cash_ggr: ggr - (bonusBets - bonusWins),
    bonus_ggr: bonusBets - bonusWins,
  };
}
