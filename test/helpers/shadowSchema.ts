import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../core/config';
import { createDb, type Db } from '../../db/knex';

export interface ShadowSchema {
  /** The schema's name, for the test's own reads and writes of its tables (`${name}.outbox_events`). */
  name: string;
  /** A connection to the test database as it is. */
  admin: Db;
  /** A connection whose search path finds the schema's tables before the public ones. */
  db: Db;
  drop(): Promise<void>;
}

/**
 * Copies of public tables (empty, with their indexes, without foreign keys) in a schema of the test's own, and a
 * connection that reads them in place of the public ones: code under test works on rows nobody else sees — the shared
 * test worker's dispatcher never takes events from this outbox.
 */
export async function shadowSchema(prefix: string, tables: string[]): Promise<ShadowSchema> {
  const databaseUrl = loadConfig().DATABASE_URL!;
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = createDb(databaseUrl, { poolMax: 2, applicationName: `${prefix}-test` });
  await admin.raw(`CREATE SCHEMA ${name}`);
  for (const table of tables) await admin.raw(`CREATE TABLE ${name}.${table} (LIKE public.${table} INCLUDING ALL)`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${name},public`);
  const db = createDb(url.toString(), { poolMax: 2, applicationName: `${prefix}-test-code` });
  return {
    name,
    admin,
    db,
    async drop() {
      await db.destroy();
      await admin.raw(`DROP SCHEMA ${name} CASCADE`);
      await admin.destroy();
    },
  };
}
