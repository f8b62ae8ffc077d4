import type { Knex } from 'knex';

/**
 * The per-player rollup tables lose their foreign key to `operators` (docs/analytics.md "Rollups"). A pass inserts
 * several rows per new player-day into them, and the key's check per inserted row was about 40 % of an insert's cost
 * (50,000 chain rows: 1.5–1.9 s with it, 0.95–1.1 s without, same server). Their operator ids come from the events a
 * pass folds, which reference their operator; no operator is ever deleted, so nothing cascaded. The per-day and
 * per-group tables, with few rows each, keep theirs.
 */
const TABLES = [
  'analytics_player_chain',
  'analytics_player_days',
  'analytics_game_days',
  'analytics_game_players',
  'analytics_provider_players',
  'analytics_transactions',
  'analytics_first_deposits',
  'analytics_player_keys',
];

export async function up(db: Knex): Promise<void> {
  for (const table of TABLES) {
    const keys = await db.raw(
      `SELECT conname FROM pg_constraint WHERE conrelid = CAST(? AS regclass) AND contype = 'f' AND confrelid = CAST('operators' AS regclass)`,
      [table],
    );
    for (const { conname } of keys.rows as Array<{ conname: string }>) await db.raw('ALTER TABLE ?? DROP CONSTRAINT ??', [table, conname]);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.raw(`ALTER TABLE ?? ADD CONSTRAINT ?? FOREIGN KEY (operator_id) REFERENCES operators (id) ON DELETE CASCADE`, [table, `${table}_operator_id_foreign`]);
  }
}
