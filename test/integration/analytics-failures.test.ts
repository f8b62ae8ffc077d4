import { randomUUID } from 'node:crypto';
import { ANALYTICS_REFRESH_SCHEDULE_ID, ensurePlatformSchedules } from '../../temporal/platformSchedules';
import type { analyticsRefreshWorkflow } from '../../workflows';
import { analytics } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

let app: TestApp;
let client: DataClient;
beforeAll(async () => {
  app = await startTestApp();
  client = await dataClient(app);
});
afterAll(() => app.close());

const PATHS = ['/kpis', '/revenue', '/players?entity_type=player', '/players/p-1', '/games', '/providers'];

describe('protection', () => {
  it.each(PATHS)('GET %s without credentials or with a bad key is 401 UNAUTHORIZED', async (path) => {
    const missing = await analytics(app, undefined, path);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing API key or session token' } });
    const bad = await analytics(app, `svc_live_${'0'.repeat(64)}`, path);
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('UNAUTHORIZED');
  });

  it('POST /refresh without credentials is 401', async () => {
    const response = await analytics(app, undefined, '/refresh', { method: 'POST' });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('error rows of spec 7.4', () => {
  it('/players without entity_type is 400 MISSING_FILTER', async () => {
    const response = await analytics(app, client.key, '/players');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'MISSING_FILTER', message: 'entity_type is required', details: [{ field: 'entity_type', message: 'is required' }] },
    });
  });

  it.each([
    ['/kpis?range=5d', 'range'],
    ['/kpis?range=2026-02-01:2026-01-01', 'range'],
    ['/kpis?range=2026-13-01:2026-12-31', 'range'],
    ['/kpis?currency=euro', 'currency'],
    ['/revenue?period=yearly', 'period'],
    ['/revenue?range=last-week', 'range'],
    ['/revenue?format=xml', 'format'],
    ['/players?entity_type=player&sort=name', 'sort'],
    ['/players?entity_type=player&direction=up', 'direction'],
    ['/players?entity_type=player&limit=0', 'limit'],
    ['/players?entity_type=player&limit=101', 'limit'],
    ['/players?entity_type=player&limit=ten', 'limit'],
    ['/players?entity_type=player&offset=-1', 'offset'],
    ['/games?limit=101', 'limit'],
    ['/games?offset=x', 'offset'],
    ['/games?range=1y', 'range'],
  ])('%s is 400 INVALID_PARAM naming %s', async (path, field) => {
    const response = await analytics(app, client.key, path);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_PARAM');
    expect(response.body.error.message).toContain(field);
    expect(response.body.error.details[0].field).toBe(field);
  });

  it('an unknown player is 404 NOT_FOUND', async () => {
    const response = await analytics(app, client.key, '/players/nobody');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'No player with external id nobody' } });
  });
});

describe('rate limits → 429 RATE_LIMITED with Retry-After', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_ANALYTICS_READ: '2', RATE_LIMIT_ANALYTICS_EXPORT: '1', RATE_LIMIT_ANALYTICS_REFRESH: '1' });
  });
  afterAll(() => limited.close());

  it('reads, exports and refreshes count separately', async () => {
    const other = await dataClient(limited);
    const call = (path: string, method = 'GET') => analytics(limited, other.key, path, { method });
    expect((await call('/kpis')).status).toBe(200);
    expect((await call('/games')).status).toBe(200);
    const read = await call('/providers');
    expect(read.status).toBe(429);
    expect(read.body.error.code).toBe('RATE_LIMITED');
    expect(Number(read.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await call('/games?format=csv')).status).toBe(200);
    const exported = await call('/revenue?format=csv');
    expect(exported.status).toBe(429);
    expect(exported.body.error.code).toBe('RATE_LIMITED');

    const refreshed = await call('/refresh', 'POST');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ success: true, message: 'Views refreshed', refreshed_at: expect.any(String) });
    // One row for the platform: a refresh of another suite may have ended since, never one before this.
    const stored = await limited.deps.db('analytics_refreshes').first('refreshed_at');
    expect(new Date(stored.refreshed_at).getTime()).toBeGreaterThanOrEqual(new Date(refreshed.body.refreshed_at).getTime());
    const again = await call('/refresh', 'POST');
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('RATE_LIMITED');
    expect(again.headers.get('retry-after')).toBeTruthy();
  });
});

describe('scheduled refresh', () => {
  it('analyticsRefreshWorkflow runs a rollup pass; the analytics-refresh Schedule runs it every 30 seconds', async () => {
    const before = await app.deps.db('analytics_refreshes').first('refreshed_at');
    const result = await app.deps.temporal.client.workflow.execute<typeof analyticsRefreshWorkflow>('analyticsRefreshWorkflow', {
      taskQueue: app.deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: `analytics-refresh-test-${randomUUID()}`,
      args: [],
    });
    expect(result).toMatchObject({ complete: true, refreshedAt: expect.any(String) });
    const after = await app.deps.db('analytics_refreshes').first('refreshed_at');
    expect(new Date(after.refreshed_at).getTime()).toBeGreaterThanOrEqual(new Date(result.refreshedAt ?? 0).getTime());
    if (before) expect(new Date(after.refreshed_at).getTime()).toBeGreaterThanOrEqual(new Date(before.refreshed_at).getTime());

    await ensurePlatformSchedules(app.deps.temporal);
    const description = await app.deps.temporal.client.schedule.getHandle(ANALYTICS_REFRESH_SCHEDULE_ID).describe();
    expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: 'analyticsRefreshWorkflow' });
    expect(description.spec.intervals?.[0]?.every).toBe(30 * 1000);
  });
});
