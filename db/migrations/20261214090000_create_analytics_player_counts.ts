import type { Knex } from 'knex';

/**
 * `total_players` kept exactly (issue 45, docs/analytics.md "Player count"), so `/kpis` no longer counts the
 * operator's entity rows on every request.
 *
 * Statement triggers on `entities` append one change row per statement and operator (+ players created or restored,
 * − players erased, deleted or retyped) in the writing transaction: the count commits or rolls back with the write, and
 * concurrent writers never wait on one another (no shared counter row). The rollup pass folds the changes into
 * `analytics_player_counts`; a read adds the changes not folded yet. The triggers go in before the first count, in
 * this migration's transaction: CREATE TRIGGER holds a lock that keeps every writer of `entities` out until commit.
 */
const LIVE = `entity_type = 'player' AND deleted_at IS NULL`;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_player_counts', (table) => {
    table.uuid('operator_id').primary().references('id').inTable('operators').onDelete('CASCADE');
    table.bigInteger('players').notNullable().defaultTo(0);
  });
  // No foreign key: a deleted operator's cascade writes its last change here; the fold drops changes of gone operators.
  await db.schema.createTable('analytics_player_count_changes', (table) => {
    table.bigIncrements('id');
    table.uuid('operator_id').notNullable();
    table.bigInteger('delta').notNullable();
    table.index(['operator_id'], 'analytics_player_count_changes_operator_idx');
  });
  await db.raw(`CREATE FUNCTION analytics_count_players() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO analytics_player_count_changes (operator_id, delta)
        SELECT operator_id, count(*) FROM new_rows WHERE ${LIVE} GROUP BY operator_id;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO analytics_player_count_changes (operator_id, delta)
        SELECT operator_id, -count(*) FROM old_rows WHERE ${LIVE} GROUP BY operator_id;
      ELSE
        INSERT INTO analytics_player_count_changes (operator_id, delta)
        SELECT operator_id, sum(delta) FROM (
          SELECT operator_id, 1 AS delta FROM new_rows WHERE ${LIVE}
          UNION ALL
          SELECT operator_id, -1 FROM old_rows WHERE ${LIVE}
        ) d GROUP BY operator_id HAVING sum(delta) <> 0;
      END IF;
      RETURN NULL;
    END $$`);
  await db.raw(`CREATE TRIGGER entities_count_players_insert AFTER INSERT ON entities
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_count_players()`);
  await db.raw(`CREATE TRIGGER entities_count_players_update AFTER UPDATE ON entities
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_count_players()`);
  await db.raw(`CREATE TRIGGER entities_count_players_delete AFTER DELETE ON entities
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_count_players()`);
  await db.raw(`INSERT INTO analytics_player_counts (operator_id, players) SELECT operator_id, count(*) FROM entities WHERE ${LIVE} GROUP BY operator_id`);
}

export async function down(db: Knex): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) await db.raw(`DROP TRIGGER entities_count_players_${event} ON entities`);
  await db.raw('DROP FUNCTION analytics_count_players()');
  await db.schema.dropTable('analytics_player_count_changes');
  await db.schema.dropTable('analytics_player_counts');
}
