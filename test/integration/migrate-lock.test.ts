import { createDb, type Db } from '../../db/knex';
import { MigrationLockError, migrateLatest, rollbackLatest } from '../../db/migrate';
import { createFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase';

/**
 * The migration runner on a live database (docs/production.md "Migrations during a rolling deploy"): a long write
 * transaction on every table holds the lock the newest migrations need, whichever table they change (altering a table,
 * or a foreign key to one, conflicts with a writer's lock). Without a `lock_timeout` the migration would wait in the
 * lock queue for as long as that transaction runs, and every writer of that table would wait behind it.
 *
 * The test rolls back every migration from {@link TABLE_LOCKING} on, which creates a table with foreign keys and a
 * trigger on `automations`; of those after it, two only create or replace functions (which wait on no table) and the
 * newest builds an index on `outbox_events`.
 */
const TABLE_LOCKING = '20261224090000_create_automation_trigger_keys';
let faulty: FaultyDatabase;
let holder: Db;
let writer: Db;
let newest: string[];

beforeAll(async () => {
  faulty = await createFaultyDatabase();
  holder = createDb(faulty.url, { poolMax: 1 });
  writer = createDb(faulty.url, { poolMax: 1 });
  newest = (await faulty.db('knex_migrations').where('name', '>=', TABLE_LOCKING).orderBy('name').pluck('name')) as string[];
  expect(newest[0]).toBe(TABLE_LOCKING);
});

beforeEach(async () => {
  for (const _ of newest) await rollbackLatest(faulty.db);
});

afterAll(async () => {
  await Promise.all([holder.destroy(), writer.destroy()]);
  await faulty.drop();
});

/** Every table but knex's own, as they stand (the rolled-back migration's tables may be gone). */
async function tables(): Promise<string> {
  const rows = await faulty
    .db('pg_tables')
    .where({ schemaname: 'public' })
    .whereNotIn('tablename', ['knex_migrations', 'knex_migrations_lock'])
    .pluck('tablename');
  return rows.map((name: string) => `"${name}"`).join(', ');
}

async function holdEveryTable(): Promise<{ release: () => Promise<void> }> {
  const trx = await holder.transaction();
  await trx.raw(`LOCK TABLE ${await tables()} IN ROW EXCLUSIVE MODE`);
  return {
    release: async () => {
      await trx.commit();
    },
  };
}

/** A writer of every table: what live traffic asks of the table the migration waits on. */
async function writeEveryTable(list: string): Promise<void> {
  await writer.transaction(async (trx) => {
    await trx.raw(`LOCK TABLE ${list} IN ROW EXCLUSIVE MODE`).timeout(1_500, { cancel: true });
  });
}

const applied = async () => (await faulty.db('knex_migrations').whereIn('name', newest).count<{ count: string }[]>('* as count'))[0]!.count;
const migrationsLocked = async () => (await faulty.db('knex_migrations_lock').first('is_locked'))!.is_locked;

it('gives way to a long transaction, lets the table writers through meanwhile, and applies once it ends', async () => {
  const hold = await holdEveryTable();
  const waits: number[] = [];
  const migration = migrateLatest(faulty.db, {
    lockTimeoutsMs: Array(100).fill(100),
    pauseMs: 50,
    onLockWait: ({ attempt, lockTimeoutMs, code }) => {
      expect({ lockTimeoutMs, code }).toEqual({ lockTimeoutMs: 100, code: '55P03' });
      waits.push(attempt);
    },
  });
  const list = await tables();
  const writes: number[] = [];
  const until = Date.now() + 2_000;
  while (Date.now() < until) {
    const start = Date.now();
    await writeEveryTable(list);
    writes.push(Date.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(waits.length).toBeGreaterThanOrEqual(5);
  expect(await applied()).toBe('0');
  expect(Math.max(...writes)).toBeLessThan(1_000);

  await hold.release();
  expect(await migration).toEqual(newest);
  expect(await applied()).toBe(String(newest.length));
  expect(await migrationsLocked()).toBe(0);
});

it('fails after its last attempt with nothing half-done, and the next start applies it', async () => {
  const hold = await holdEveryTable();
  const waits: number[] = [];
  await expect(
    migrateLatest(faulty.db, { lockTimeoutsMs: [100, 200, 300], pauseMs: 50, onLockWait: ({ lockTimeoutMs }) => waits.push(lockTimeoutMs) }),
  ).rejects.toThrow(new MigrationLockError(3));
  expect(waits).toEqual([100, 200, 300]);
  expect(await applied()).toBe('0');
  expect(await migrationsLocked()).toBe(0);

  await hold.release();
  expect(await migrateLatest(faulty.db)).toEqual(newest);
});
