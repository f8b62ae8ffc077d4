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

/**
 * Each attempt's `lock_timeout`. A migration waiting for a lock queues every later reader and writer of that table
 * behind it, so on a live database it waits briefly, gives way (its transaction rolls back whole) and tries again
 * with a longer wait; a rollup pass or a long report ends between two attempts. About 18 s of waiting and 22 s of
 * pauses in all, then the start fails (an orchestrator restarts it) rather than queue traffic without bound. The
 * bound needs the one transaction: a migration declaring `config = { transaction: false }` would run without it.
 */
const LOCK_TIMEOUTS_MS = [100, 100, 200, 200, 500, 500, 1_000, 1_000, 2_000, 2_000, 5_000, 5_000] as const;
const PAUSE_MS = 2_000;
/** `lock_not_available` (the `lock_timeout` ran out) and `deadlock_detected`: both mean "try again later". */
const LOCK_FAILURES = new Set(['55P03', '40P01']);

export interface MigrateOptions {
  /** Overrides the attempts' `lock_timeout`s (tests). */
  lockTimeoutsMs?: readonly number[];
  /** Overrides the pause between attempts (tests). */
  pauseMs?: number;
  /** Told of each attempt that gave way. */
  onLockWait?: (attempt: { attempt: number; lockTimeoutMs: number; code: string }) => void;
}

export class MigrationLockError extends Error {
  constructor(attempts: number) {
    super(`migrations could not take their locks in ${attempts} attempts: a long transaction holds a table they change`);
    this.name = 'MigrationLockError';
  }
}

/**
 * Applies every pending migration, in one transaction; knex's lock row keeps concurrent starters from racing (the
 * second waits for the first's commit, then finds nothing pending). No lock is waited for longer than the attempt's
 * `lock_timeout` (docs/production.md "Migrations during a rolling deploy").
 */
export async function migrateLatest(db: Db, options: MigrateOptions = {}): Promise<string[]> {
  const timeouts = options.lockTimeoutsMs ?? LOCK_TIMEOUTS_MS;
  for (let attempt = 0; ; attempt++) {
    const lockTimeoutMs = timeouts[attempt]!;
    try {
      const [, applied] = (await db.migrate.latest({
        migrationSource,
        beforeAll: async (trx) => {
          await trx.raw(`SELECT set_config('lock_timeout', ?, true)`, [`${lockTimeoutMs}ms`]);
        },
      })) as [number, string[]];
      return applied;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !LOCK_FAILURES.has(code)) throw error;
      options.onLockWait?.({ attempt: attempt + 1, lockTimeoutMs, code });
      if (attempt + 1 >= timeouts.length) throw new MigrationLockError(timeouts.length);
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? PAUSE_MS));
    }
  }
}

/** Undoes the latest applied migration. */
export async function rollbackLatest(db: Db): Promise<void> {
  await db.migrate.down({ migrationSource });
}

export async function rollbackAll(db: Db): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}
