import { startTestApp, type TestApp } from '../helpers/app';
import { createFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase';
import { dataClient, type DataClient } from '../helpers/data';

/** 500 INTERNAL_ERROR of spec 7.4, triggered for real: the app's own database loses its events table. */
let faulty: FaultyDatabase;
let app: TestApp;
let client: DataClient;

beforeAll(async () => {
  faulty = await createFaultyDatabase();
  app = await startTestApp({ DATABASE_URL: faulty.url });
  client = await dataClient(app);
  await faulty.db.raw('ALTER TABLE entity_events RENAME TO entity_events_unavailable');
});

afterAll(async () => {
  await app.close();
  await faulty.drop();
});

describe('analytics server errors', () => {
  it.each(['/games?range=7d', '/business?range=7d'])('%s: 500 INTERNAL_ERROR without a stack or a query', async (path) => {
    const response = await fetch(`${app.url}/analytics-api/analytics${path}`, { headers: { authorization: `Bearer ${client.key}` } });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
    expect(text).not.toMatch(/entity_events|select|stack/i);
  });
});
