/**
 * The business part of a rollup batch (docs/analytics.md "Business figures"), on `analytics_batch`
 * (analyticsRollupBatch.ts). Each transaction id's latest event of each day in each currency
 * (`analytics_transactions`). The raw path counts a transaction once, at its latest status within the range; the
 * latest of a range is the latest of its days' latest, so `GET /business` reads one row per transaction and day
 * instead of the range's events. Latest is the raw path's order: occurrence, then arrival (then
 * the event id, where the raw path leaves the tie to chance).
 */
export const TRANSACTIONS = `INSERT INTO analytics_transactions AS t
    (operator_id, currency, day, tx_key, entity_id, type, status, amount, occurred_at, created_at, event_id)
  SELECT DISTINCT ON (operator_id, currency, day, tx_key)
         operator_id, currency, day, tx_key, entity_id, tx_type, tx_status, amount, occurred_at, created_at, id
    FROM analytics_batch WHERE counted AND tx_key IS NOT NULL
   ORDER BY operator_id, currency, day, tx_key, occurred_at DESC, created_at DESC, id DESC
  ON CONFLICT (operator_id, currency, day, tx_key) DO UPDATE
    SET entity_id = excluded.entity_id, type = excluded.type, status = excluded.status, amount = excluded.amount,
        occurred_at = excluded.occurred_at, created_at = excluded.created_at, event_id = excluded.event_id
    WHERE (excluded.occurred_at, excluded.created_at, excluded.event_id) > (t.occurred_at, t.created_at, t.event_id)`;

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
