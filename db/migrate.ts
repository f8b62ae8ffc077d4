import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Db } from './knex';

const MIGRATIONS_DIR = path.join(__dirname, 'migrations');
const MIGRATION_FILE = /^\d{14}_[a-z0-9_]+\.(ts|js)$/;

interface MigrationModule {
  up: (db: Knex) => Promise<void>;
  down: (db: Knex) => Promise<void>;
}

/**
 * Finds migrations by file name (`YYYYMMDDHHMMSS_verb_noun`) in both the TypeScript sources and the
 * compiled `dist/` tree, and names them without extension so either runtime sees the same history.
 */
const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return readdirSync(MIGRATIONS_DIR)
      .filter((file) => MIGRATION_FILE.test(file))
      .map((file) => file.replace(/\.(ts|js)$/, ''))
      .sort();
  },
  getMigrationName(name) {
    return name;
  },
  async getMigration(name) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(path.join(MIGRATIONS_DIR, name)) as MigrationModule;
  },
};

/** Applies every pending migration; knex's lock table keeps concurrent starters from racing. */
export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function rollbackAll(db: Db): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}
