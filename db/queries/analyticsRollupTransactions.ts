import type { Db } from '../knex';
import { withNestedLoops } from './analyticsRollupDistinct';

/**
 * The transactions' part of a rollup batch (docs/analytics.md "Business figures"), on `analytics_batch`
 * (analyticsRollupBatch.ts). The raw path counts a transaction once, at its latest status within the range. Each
 * transaction id's latest event of each day in each currency is kept (`analytics_transactions`) with the day of the
 * same transaction's next kept row (`next_day`, `infinity` when none): the latest of a range is its row in the range
 * whose next day is after the range's end. `analytics_transaction_days` counts deposit and withdrawal rows per
 * (currency, day, next day, type, status), so `GET /business` sums a few rows per day instead of the range's
 * transactions. Latest is the raw path's order: occurrence, then arrival (then the event id, where the raw path leaves
 * the tie to chance).
 */

/** The transaction types `GET /business` counts (its `deposits` and `withdrawals`). */
const FLOW_TYPES = `('deposit', 'withdrawal')`;

const TOUCHED = `CREATE TEMP TABLE analytics_tx_touched ON COMMIT DROP AS
  SELECT DISTINCT operator_id, currency, tx_key FROM analytics_batch WHERE counted AND tx_key IS NOT NULL`;

/** Every kept row of the batch's transactions: a primary-key probe per transaction (`OFFSET 0` keeps it a probe). */
const rowsOfTouched = (columns: string, where = 'TRUE') => `analytics_tx_touched k CROSS JOIN LATERAL (
    SELECT ${columns} FROM analytics_transactions x
     WHERE x.operator_id = k.operator_id AND x.currency = k.currency AND x.tx_key = k.tx_key AND ${where} OFFSET 0) x`;

/** Adds (`+`) or takes out (`-`) the touched transactions' rows as they now stand. */
const count = (sign: '+' | '-') => `INSERT INTO analytics_transaction_days AS t (operator_id, currency, day, next_day, type, status, txs, amount)
  SELECT k.operator_id, k.currency, x.day, x.next_day, x.type, x.status, ${sign}count(*), ${sign}sum(x.amount)
    FROM ${rowsOfTouched('x.day, x.next_day, x.type, x.status, x.amount', `x.type IN ${FLOW_TYPES}`)}
   GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (operator_id, currency, day, next_day, type, status) DO UPDATE SET txs = t.txs + excluded.txs, amount = t.amount + excluded.amount`;

const KEEP = `INSERT INTO analytics_transactions AS t
    (operator_id, currency, day, tx_key, entity_id, type, status, amount, occurred_at, created_at, event_id)
  SELECT DISTINCT ON (operator_id, currency, day, tx_key)
         operator_id, currency, day, tx_key, entity_id, tx_type, tx_status, amount, occurred_at, created_at, id
    FROM analytics_batch WHERE counted AND tx_key IS NOT NULL
   ORDER BY operator_id, currency, day, tx_key, occurred_at DESC, created_at DESC, id DESC
  ON CONFLICT (operator_id, currency, day, tx_key) DO UPDATE
    SET entity_id = excluded.entity_id, type = excluded.type, status = excluded.status, amount = excluded.amount,
        occurred_at = excluded.occurred_at, created_at = excluded.created_at, event_id = excluded.event_id
    WHERE (excluded.occurred_at, excluded.created_at, excluded.event_id) > (t.occurred_at, t.created_at, t.event_id)`;

/** A late day between two kept ones changes its predecessor's next day: every touched transaction's rows are relinked. */
const RELINK = `UPDATE analytics_transactions t SET next_day = n.next_day
  FROM (SELECT k.operator_id, k.currency, k.tx_key, x.day, x.next_day AS old_next,
               coalesce(lead(x.day) OVER (PARTITION BY k.operator_id, k.currency, k.tx_key ORDER BY x.day), 'infinity') AS next_day
          FROM ${rowsOfTouched('x.day, x.next_day')}) n
 WHERE n.next_day <> n.old_next
   AND t.operator_id = n.operator_id AND t.currency = n.currency AND t.day = n.day AND t.tx_key = n.tx_key`;

/**
 * Folds the batch's transaction events: the touched transactions' rows are taken out of the day counts, updated and
 * relinked, and added back, so a late or corrected event moves only its own transaction's counts. Inside the batch's
 * transaction.
 */
export async function foldTransactions(trx: Db): Promise<void> {
  await trx.raw(TOUCHED);
  await trx.raw('ANALYZE analytics_tx_touched');
  await trx.raw(count('-'));
  await trx.raw(KEEP);
  await withNestedLoops(trx, RELINK);
  await trx.raw(count('+'));
  await trx.raw('DROP TABLE analytics_tx_touched');
}

/** Takes erased players' kept transactions out, with their day counts (binding `erased`, analyticsRollupBatch.ts). */
export async function subtractErasedTransactions(trx: Db, withErased: string, bindings: Record<string, string>): Promise<void> {
  await trx.raw(
    `${withErased}, gone AS (DELETE FROM analytics_transactions WHERE (operator_id, entity_id) IN (SELECT operator_id, entity_id FROM erased) RETURNING *),
       sums AS (SELECT operator_id, currency, day, next_day, type, status, count(*) AS txs, sum(amount) AS amount FROM gone
                 WHERE type IN ${FLOW_TYPES} GROUP BY 1, 2, 3, 4, 5, 6)
     UPDATE analytics_transaction_days t SET txs = t.txs - s.txs, amount = t.amount - s.amount
       FROM sums s WHERE t.operator_id = s.operator_id AND t.currency = s.currency AND t.day = s.day AND t.next_day = s.next_day
        AND t.type = s.type AND t.status = s.status`,
    bindings,
  );
}
