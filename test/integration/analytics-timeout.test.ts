import { analytics, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';

/**
 * The analytics statement timeout (docs/analytics.md "Statement timeout"): a read whose statement runs past
 * `ANALYTICS_STATEMENT_TIMEOUT_MS` is cancelled by PostgreSQL and answered 503 `QUERY_TIMEOUT` with `Retry-After`; the
 * limit ends with the read's transaction. The slow statement is made by holding a lock the read's table needs: the
 * statement waits, and the wait counts against its timeout, so the test does not depend on the machine's speed.
 */
let app: TestApp;
let quick: TestApp;
let alice: DataClient;

const TIMEOUT_MS = 1000;
const TIMED_OUT = {
  success: false,
  error: { code: 'QUERY_TIMEOUT', message: 'The figures took longer than 1 s to compute and were cancelled; retry later or ask for a shorter range' },
};

/** Runs `request` while another transaction holds `table` exclusively, then lets it go. */
async function whileLocked<T>(table: string, request: () => Promise<T>): Promise<T> {
  const holder = await app.deps.db.transaction();
  try {
    await holder.raw(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    return await request();
  } finally {
    await holder.rollback();
  }
}

beforeAll(async () => {
  [app, quick] = await Promise.all([startTestApp(), startTestApp({ ANALYTICS_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) })]);
  alice = await dataClient(app);
  await seedPlayers(alice, [{ externalId: 'p1' }]);
  await refreshAnalyticsViews(app.deps.db);
});
afterAll(async () => {
  await quick.close();
  await app.close();
});

it('401 without credentials comes before any read', async () => {
  const response = await analytics(quick, undefined, '/kpis');
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing API key or session token' } });
});

it('the default limit is 10 s', () => {
  expect(app.deps.config.ANALYTICS_STATEMENT_TIMEOUT_MS).toBe(10_000);
});

it('a /kpis statement past the limit is cancelled: 503 QUERY_TIMEOUT with Retry-After, after about the limit', async () => {
  const started = Date.now();
  const response = await whileLocked('analytics_player_counts', () => analytics(quick, alice.key, '/kpis'));
  expect(response.status).toBe(503);
  expect(response.body).toEqual(TIMED_OUT);
  expect(response.headers.get('retry-after')).toBe('30');
  expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
  const after = await analytics(quick, alice.key, '/kpis');
  expect(after.status).toBe(200);
  expect(after.body.data.kpis.total_players).toBe(1);
});

it('/cohorts on the rollups is cancelled the same way', async () => {
  const response = await whileLocked('analytics_cohort_days', () => analytics(quick, alice.key, '/cohorts'));
  expect(response.status).toBe(503);
  expect(response.body).toEqual(TIMED_OUT);
});

it('the limit ends with the read: no pooled connection keeps it', async () => {
  await whileLocked('analytics_player_counts', () => analytics(quick, alice.key, '/kpis'));
  const settings = await Promise.all(
    Array.from({ length: 10 }, () => quick.deps.db.raw(`SELECT current_setting('statement_timeout') AS value, pg_sleep(0.05)`)),
  );
  const baseline = (await app.deps.db.raw(`SELECT current_setting('statement_timeout') AS value`)).rows[0].value;
  expect(settings.map((result) => result.rows[0].value)).toEqual(Array.from({ length: 10 }, () => baseline));
});
