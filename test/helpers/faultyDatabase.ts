import { randomUUID } from 'node:crypto';
import { createDb, type Db } from '../../db/knex';
import { migrateLatest } from '../../db/migrate';

export interface FaultyDatabase {
  /** URL of a freshly migrated database of its own, for an app under test. */
  url: string;
  /** A connection to it, to break it (rename a table) once the app is running. */
  db: Db;
  drop(): Promise<void>;
}

/**
 * A throw-away database on the test server, so a test can take a table away and trigger real 5xx
 * errors without disturbing the suites running beside it.
 */
export async function createFaultyDatabase(): Promise<FaultyDatabase> {
  const name = `faults_${randomUUID().replace(/-/g, '')}`;
  const admin = createDb(process.env.DATABASE_URL!, { poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { poolMax: 2 });
  await migrateLatest(db);
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}
