import { startTestApp, type TestApp } from '../helpers/app';
import { createFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase';
import { dataClient, type DataClient } from '../helpers/data';

/** 500 INTERNAL_ERROR of spec 7.2, triggered for real: the app's own database loses its events table. */
let faulty: FaultyDatabase;
let app: TestApp;
let client: DataClient;
const logLines: string[] = [];

beforeAll(async () => {
  faulty = await createFaultyDatabase();
  app = await startTestApp({ DATABASE_URL: faulty.url }, { logLines });
  client = await dataClient(app);
  await client.call('/entities', { body: { entityType: 'player', externalId: 'p-1', data: { email: 'leak@example.test' } } });
  await faulty.db.raw('ALTER TABLE entity_events RENAME TO entity_events_unavailable');
});

afterAll(async () => {
  await app.close();
  await faulty.drop();
});

describe('data API server errors', () => {
  it('500 INTERNAL_ERROR without a stack, a query, a table name or the payload', async () => {
    for (const response of [
      await client.call('/entities/p-1/events', { body: { eventType: 'session', data: { device: 'secret-device' } } }),
      await client.call('/entities/p-1/events'),
    ]) {
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
      expect(response.text).not.toMatch(/entity_events|select|insert|stack|secret-device/i);
    }
    const all = logLines.join('\n');
    expect(all).toContain('"level":50');
    expect(all).not.toContain('leak@example.test');
    expect(all).not.toContain(client.key);
  });
});
