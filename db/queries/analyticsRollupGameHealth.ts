/** The game-health parts of a rollup batch (docs/analytics.md "Game health"), on `analytics_batch` (analyticsRollupBatch.ts). */

/**
 * Each player's rounds of the batch per day, currency, game and provider (`analytics_game_days`): what `GET
 * /game-health` sums over a range, with its distinct players, instead of the range's rounds.
 */
export const GAME_DAYS = `INSERT INTO analytics_game_days AS t
    (operator_id, currency, day, game, provider, entity_id, rounds, bets, wins, bonus_bets, bonus_wins)
  SELECT operator_id, currency, day, game_name, round_provider, entity_id, count(*), sum(bet), sum(win), sum(bonus_bet), sum(bonus_win)
    FROM analytics_batch WHERE counted AND is_game GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (operator_id, currency, day, game, provider, entity_id) DO UPDATE
    SET rounds = t.rounds + excluded.rounds, bets = t.bets + excluded.bets, wins = t.wins + excluded.wins,
        bonus_bets = t.bonus_bets + excluded.bonus_bets, bonus_wins = t.bonus_wins + excluded.bonus_wins`;

/**
 * The batch's rounds per day, currency, game and provider, all players together (`analytics_game_health_days`): what
 * `GET /game-health` sums over a range — a few rows per day and game instead of one per player.
 */
export const GAME_HEALTH_DAYS = `INSERT INTO analytics_game_health_days AS t
    (operator_id, currency, day, game, provider, rounds, bets, wins, bonus_bets, bonus_wins)
  SELECT operator_id, currency, day, game_name, round_provider, count(*), sum(bet), sum(win), sum(bonus_bet), sum(bonus_win)
    FROM analytics_batch WHERE counted AND is_game GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (operator_id, currency, day, game, provider) DO UPDATE
    SET rounds = t.rounds + excluded.rounds, bets = t.bets + excluded.bets, wins = t.wins + excluded.wins,
        bonus_bets = t.bonus_bets + excluded.bonus_bets, bonus_wins = t.bonus_wins + excluded.bonus_wins`;
