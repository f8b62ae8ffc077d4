import type { Knex } from 'knex';

/**
 * NGR from the rollups without a join to the players (issue 45, docs/analytics.md "NGR"): GGR and bonus cost per
 * (operator, currency, day, player jurisdiction) (`analytics_jurisdiction_days`); the key each player's days are kept under (`analytics_player_jurisdictions`); and a
 * queue of players whose jurisdiction changed (`analytics_jurisdiction_changes`, filled by a trigger on `entities`),
 * whose days the next pass moves. The key is the upper-cased jurisdiction, `''` when absent or over 64 characters.
 *
 * Filled here from `analytics_player_days` (what the passes have already read) and the players' jurisdictions now,
 * under the rollup state row's lock so no pass runs in between. Stop the workers during the migration, as for any
 * rollup change.
 */
const KEY = `coalesce(CASE WHEN length(en.data->>'jurisdiction') <= 64 THEN upper(en.data->>'jurisdiction') ELSE '' END, '')`;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_jurisdiction_days', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('currency').notNullable();
    table.date('day').notNullable();
    table.text('jurisdiction').notNullable();
    table.decimal('ggr', null).notNullable().defaultTo(0);
    table.decimal('bonus', null).notNullable().defaultTo(0);
    table.primary(['operator_id', 'currency', 'day', 'jurisdiction']);
  });
  await db.schema.createTable('analytics_player_jurisdictions', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_id').notNullable();
    table.text('jurisdiction').notNullable();
    table.primary(['operator_id', 'entity_id']);
  });
  await db.schema.createTable('analytics_jurisdiction_changes', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.text('entity_id').notNullable();
    table.primary(['operator_id', 'entity_id']);
  });
  await db.raw(`
    CREATE FUNCTION analytics_queue_jurisdiction_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO analytics_jurisdiction_changes (operator_id, entity_id) VALUES (NEW.operator_id, NEW.id) ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`);
  await db.raw(`
    CREATE TRIGGER analytics_jurisdiction_changed AFTER UPDATE OF data ON entities FOR EACH ROW
    WHEN (NEW.entity_type = 'player' AND OLD.data->'jurisdiction' IS DISTINCT FROM NEW.data->'jurisdiction')
    EXECUTE FUNCTION analytics_queue_jurisdiction_change()`);

  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `INSERT INTO analytics_player_jurisdictions (operator_id, entity_id, jurisdiction)
     SELECT en.operator_id, en.id, ${KEY} FROM entities en
      WHERE en.entity_type = 'player' AND en.deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM analytics_player_days d WHERE d.operator_id = en.operator_id AND d.entity_id = en.id AND (d.played OR d.bonused))`,
  );
  await db.raw(
    `INSERT INTO analytics_jurisdiction_days (operator_id, currency, day, jurisdiction, ggr, bonus)
     SELECT d.operator_id, d.currency, d.day, k.jurisdiction, sum(d.ggr), sum(d.bonus)
       FROM analytics_player_days d
       JOIN analytics_player_jurisdictions k ON k.operator_id = d.operator_id AND k.entity_id = d.entity_id
      WHERE d.played OR d.bonused
      GROUP BY 1, 2, 3, 4`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER analytics_jurisdiction_changed ON entities');
  await db.raw('DROP FUNCTION analytics_queue_jurisdiction_change()');
  await db.schema.dropTable('analytics_jurisdiction_changes');
  await db.schema.dropTable('analytics_player_jurisdictions');
  await db.schema.dropTable('analytics_jurisdiction_days');
}
