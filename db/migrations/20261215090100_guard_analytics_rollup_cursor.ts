import type { Knex } from 'knex';

/**
 * The rollups' cursor only moves forward (docs/analytics.md "Rollups"): every event at or before it is counted, so a
 * cursor set back would count those events again, silently. A writer that tries is refused by the database, whoever
 * it is, and its transaction (with the figures it folded) rolls back.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`CREATE FUNCTION analytics_rollup_cursor_forward() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.cursor_xid, NEW.cursor_id) < (OLD.cursor_xid, OLD.cursor_id) THEN
        RAISE EXCEPTION 'the analytics rollup cursor may not move back (from %/% to %/%)', OLD.cursor_xid, OLD.cursor_id, NEW.cursor_xid, NEW.cursor_id
          USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$`);
  await db.raw(`CREATE TRIGGER analytics_rollup_cursor_forward BEFORE UPDATE OF cursor_xid, cursor_id ON analytics_rollup_state
    FOR EACH ROW EXECUTE FUNCTION analytics_rollup_cursor_forward()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER analytics_rollup_cursor_forward ON analytics_rollup_state');
  await db.raw('DROP FUNCTION analytics_rollup_cursor_forward()');
}
