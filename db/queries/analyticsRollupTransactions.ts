/**
 * The transaction part of a rollup batch (docs/analytics.md "Business figures"): each transaction id's latest event of
 * each day in each currency (`analytics_transactions`). The raw path counts a transaction once, at its latest status
 * within the range; the latest of a range is the latest of its days' latest, so `GET /business` reads one row per
 * transaction and day instead of the range's events. Latest is the raw path's order: occurrence, then arrival (then
 * the event id, where the raw path leaves the tie to chance). Runs on `analytics_batch` (analyticsRollupBatch.ts).
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
