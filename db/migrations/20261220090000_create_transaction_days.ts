import type { Knex } from 'knex';

/**
 * `GET /business`'s deposits and withdrawals without reading the range's transactions (issue 45, docs/analytics.md
 * "Business figures"):
 * - each kept transaction-day (`analytics_transactions`) gains `next_day`, the day of the same transaction's next row
 *   (`infinity` when there is none), so its latest status within a range is the row in the range whose next day is
 *   after the range's end;
 * - `analytics_transaction_days` counts the deposit and withdrawal rows and sums their amounts per (currency, day,
 *   next day, type, status): a range's figures are a few rows per day.
 *
 * Filled here from `analytics_transactions` (what the passes have already read), under the rollup state row's lock so
 * no pass runs in between. Stop the workers during the migration, as for any rollup change.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(`ALTER TABLE analytics_transactions ADD COLUMN next_day date NOT NULL DEFAULT 'infinity'`);
  await db.raw('CREATE INDEX analytics_transactions_tx_key ON analytics_transactions (operator_id, currency, tx_key, day)');
  await db.raw(
    `UPDATE analytics_transactions t SET next_day = n.next_day
       FROM (SELECT operator_id, currency, tx_key, day, lead(day) OVER (PARTITION BY operator_id, currency, tx_key ORDER BY day) AS next_day
               FROM analytics_transactions) n
      WHERE n.next_day IS NOT NULL AND t.operator_id = n.operator_id AND t.currency = n.currency AND t.tx_key = n.tx_key AND t.day = n.day`,
  );
  await db.schema.createTable('analytics_transaction_days', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.date('day').notNullable();
    table.date('next_day').notNullable();
    table.text('type').notNullable();
    table.text('status').notNullable();
    table.bigInteger('txs').notNullable();
    table.decimal('amount', null).notNullable();
    table.primary(['operator_id', 'currency', 'day', 'next_day', 'type', 'status']);
  });
  await db.raw(
    `INSERT INTO analytics_transaction_days (operator_id, currency, day, next_day, type, status, txs, amount)
     SELECT operator_id, currency, day, next_day, type, status, count(*), sum(amount) FROM analytics_transactions
      WHERE type IN ('deposit', 'withdrawal') GROUP BY 1, 2, 3, 4, 5, 6`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_transaction_days');
  await db.raw('DROP INDEX analytics_transactions_tx_key');
  await db.raw('ALTER TABLE analytics_transactions DROP COLUMN next_day');
}
