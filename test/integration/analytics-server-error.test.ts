import { randomUUID } from 'node:crypto';
import { createDb, type Db } from '../../db/knex';
import { migrateLatest } from '../../db/migrate';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

/** 500 INTERNAL_ERROR of spec 7.4, triggered for real: the app's own database loses its events table. */
const databaseName = `analytics_faults_${randomUUID().replace(/-/g, '')}`;
let admin: Db;
let faulty: Db;
let app: TestApp;
let client: DataClient;

beforeAll(async () => {
  admin = createDb(process.env.DATABASE_URL!, { poolMax: 1 });
  await admin.raw(`CREATE DATABASE ${databaseName}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${databaseName}`;
  faulty = createDb(url.toString(), { poolMax: 2 });
  await migrateLatest(faulty);
  app = await startTestApp({ DATABASE_URL: url.toString() });
  client = await dataClient(app);
  await faulty.raw('ALTER TABLE entity_events RENAME TO entity_events_unavailable');
});

afterAll(async () => {
  await app.close();
  await faulty.destroy();
  await admin.raw(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.destroy();
});

describe('analytics server errors', () => {
  it('500 INTERNAL_ERROR without a stack or a query', async () => {
    const response = await fetch(`${app.url}/analytics-api/analytics/games?range=7d`, { headers: { authorization: `Bearer ${client.key}` } });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
    expect(text).not.toMatch(/entity_events|select|stack/i);
  });
});
