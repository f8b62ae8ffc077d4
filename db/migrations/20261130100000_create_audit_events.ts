import type { Knex } from 'knex';

/**
 * `audit_events`: who changed what in an organisation's configuration, written in the transaction of the change
 * (docs/compliance.md "Audit trail"). Append-only in the database, not by convention: a trigger refuses every UPDATE
 * and DELETE, and another refuses TRUNCATE, whoever the role. No foreign key to `operators`, so no cascade can
 * remove the trail. `before_hash` and `after_hash` are SHA-256 hex of the record's stable JSON (core/audit.ts); no
 * value of the record is stored, so no secret, credential or key can be here. `occurred_at` is `clock_timestamp()`,
 * so events of one transaction keep their order; `(occurred_at, id)` is the keyset the listing pages on.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('audit_events', (table) => {
    table.uuid('operator_id').notNullable();
    table.text('id').notNullable();
    table.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(db.raw('clock_timestamp()'));
    table.text('actor_kind').notNullable();
    table.text('actor_id').notNullable();
    table.text('action').notNullable();
    table.text('target_type').notNullable();
    table.text('target_id').notNullable();
    table.text('before_hash');
    table.text('after_hash');
    table.specificType('changed_fields', 'text[]').notNullable().defaultTo('{}');
    table.text('summary').notNullable();
    table.primary(['operator_id', 'id']);
  });
  await db.raw(`ALTER TABLE audit_events
    ADD CONSTRAINT audit_events_actor_kind CHECK (actor_kind IN ('member', 'api_key')),
    ADD CONSTRAINT audit_events_hashes CHECK ((before_hash IS NULL OR before_hash ~ '^[0-9a-f]{64}$') AND (after_hash IS NULL OR after_hash ~ '^[0-9a-f]{64}$'))`);
  await db.raw('CREATE INDEX audit_events_page_idx ON audit_events (operator_id, occurred_at DESC, id DESC)');
  await db.raw('CREATE INDEX audit_events_target_idx ON audit_events (operator_id, target_type, target_id, occurred_at DESC)');
  await db.raw(`CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$`);
  await db.raw(`CREATE TRIGGER audit_events_no_change BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()`);
  await db.raw(`CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TABLE audit_events');
  await db.raw('DROP FUNCTION audit_events_append_only()');
}
