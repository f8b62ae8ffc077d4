import type { Knex } from 'knex';

/**
 * `GET /business`'s converted players without reading the range's players (issue 45, docs/analytics.md "Business
 * figures"): players counted per (registration day, FTD currency, FTD day), moved by the pass that sets or moves a
 * player's first deposit and taken out when the player is erased (db/queries/analyticsRollupFirstDeposits.ts). A
 * range reads at most one row per registration day and FTD day instead of probing each registered player for an FTD.
 *
 * Filled here from the kept first deposits, under the rollup state row's lock so no pass runs in between. Stop the
 * workers during the migration, as for any rollup change.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_conversions', (table) => {
    table.uuid('operator_id').notNullable().references('id').inTable('operators').onDelete('CASCADE');
    table.date('registered_day').notNullable();
    table.text('currency').notNullable();
    table.date('ftd_day').notNullable();
    table.bigInteger('players').notNullable();
    table.primary(['operator_id', 'registered_day', 'currency', 'ftd_day']);
  });
  await db.raw('SELECT 1 FROM analytics_rollup_state WHERE id = 1 FOR UPDATE');
  await db.raw(
    `INSERT INTO analytics_conversions (operator_id, registered_day, currency, ftd_day, players)
     SELECT f.operator_id, (en.created_at AT TIME ZONE 'UTC')::date, f.currency, f.day, count(*)
       FROM analytics_first_deposits f JOIN entities en ON en.id = f.entity_id AND en.operator_id = f.operator_id
      GROUP BY 1, 2, 3, 4`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('analytics_conversions');
}
