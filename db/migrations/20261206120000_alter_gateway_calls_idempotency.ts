import type { Knex } from 'knex';

/**
 * A gateway call's key binds one request, and every call reaches a final state (docs/gateway.md "A POST is sent at most
 * once"): `request_hash` (SHA-256 of the canonical connection, operation and params) tells a retry from another
 * request under the same Idempotency-Key; `not_sent` frees a key whose call never reached the supplier (circuit open,
 * destination refused, budget, connection never opened), so a retry runs afresh; `outcome_unknown` keeps the key of a
 * call that went out and whose answer never came, so a retry is told so instead of sending again. `code` says why.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('gateway_calls', (table) => {
    table.text('request_hash');
    table.text('code');
  });
  await db.raw('ALTER TABLE gateway_calls DROP CONSTRAINT gateway_calls_state_check');
  await db.raw(
    "ALTER TABLE gateway_calls ADD CONSTRAINT gateway_calls_state_check CHECK (state IN ('sending', 'answered', 'not_sent', 'outcome_unknown'))",
  );
}

export async function down(db: Knex): Promise<void> {
  await db('gateway_calls').whereIn('state', ['not_sent', 'outcome_unknown']).delete();
  await db.raw('ALTER TABLE gateway_calls DROP CONSTRAINT gateway_calls_state_check');
  await db.raw("ALTER TABLE gateway_calls ADD CONSTRAINT gateway_calls_state_check CHECK (state IN ('sending', 'answered'))");
  await db.schema.alterTable('gateway_calls', (table) => {
    table.dropColumn('request_hash');
    table.dropColumn('code');
  });
}
