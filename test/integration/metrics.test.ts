import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { parseSamples, samplesOf, sumOf, type Sample } from '../../tools/bench/lib/promText';
import { readMetricsSnapshot } from '../../db/queries/metrics';
import { freePort, isListening } from '../../devstack/freePort';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';
import { http } from '../helpers/http';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, kycDocument, startKycSupplier } from '../helpers/suppliers';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';

const queue = `metrics-${randomUUID()}`;
let workerPort: number;
let worker: WorkerProcess;
let app: TestApp;
let client: DataClient;
let plain: TestApp;

beforeAll(async () => {
  workerPort = await freePort();
  worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, WORKER_METRICS_PORT: String(workerPort) });
  app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, METRICS_PORT: '0', RATE_LIMIT_ANALYTICS_READ: '1', GATEWAY_MAX_ATTEMPTS: '1' });
  // A test run outlasting 200 ms stores its own outcome in the worker (temporal/automationRuns.ts `runAutomationNow`).
  plain = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, WORKFLOW_TEST_WAIT_MS: '200' });
  client = await dataClient(app);
}, 90_000);

afterAll(async () => {
  await plain?.close();
  await app?.close();
  await worker?.stop();
});

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return parseSamples(await response.text());
}

/** Scrapes until `ready` holds (the worker's exporter and the API's gauges catch up within a few seconds). */
async function scrapeUntil(url: string, ready: (samples: Sample[]) => boolean, timeoutMs = 10_000): Promise<Sample[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const samples = await scrape(url);
    if (ready(samples) || Date.now() > deadline) return samples;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const metricsUrl = () => app.metricsUrl ?? 'http://metrics-listener-missing';
const apiMetrics = () => scrape(metricsUrl());
const workerMetricsUrl = () => `http://127.0.0.1:${workerPort}/metrics`;
/** This machine's first non-loopback IPv4 address: a listener bound to loopback must not answer there. */
const outside = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;

describe('where /metrics is served', () => {
  it('is not on the public port: 404 NOT_FOUND there, with or without METRICS_PORT', async () => {
    for (const base of [app.url, plain.url]) {
      const response = await http(`${base}/metrics`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Route not found' } });
    }
    expect(plain.deps.metrics).toBeUndefined();
  });

  it('is on its own listener, loopback by default, without credentials; anything else there is 404', async () => {
    expect(metricsUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const port = Number(new URL(metricsUrl()).port);
    expect(await isListening(port, '127.0.0.1')).toBe(true);
    if (outside) expect(await isListening(port, outside)).toBe(false);
    const response = await fetch(metricsUrl());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const base = metricsUrl().replace(/\/metrics$/, '');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
    expect((await fetch(metricsUrl(), { method: 'POST' })).status).toBe(404);
  });
});

describe('the API series after real traffic', () => {
  it('counts and times requests by route template and status, never the raw path', async () => {
    const externalId = `metrics-player-${randomUUID()}`;
    expect((await client.call('/entities', { body: { entityType: 'player', externalId, data: { country: 'MT' } } })).status).toBe(201);
    expect((await client.call(`/entities/${externalId}`)).status).toBe(200);
    expect((await client.call('/entities/no-such-player')).status).toBe(404);
    expect((await http(`${app.url}/no-such-route/${externalId}`)).status).toBe(404);

    const text = await (await fetch(metricsUrl())).text();
    expect(text).not.toContain(externalId);
    expect(text).not.toContain('no-such-player');
    const samples = parseSamples(text);
    const count = (labels: Record<string, string>) => sumOf(samples, 'platform_http_request_duration_seconds_count', labels);
    expect(count({ method: 'POST', route: '/operator-data-api/entities', status: '201' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/operator-data-api/entities/:externalId', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/operator-data-api/entities/:externalId', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '(none)', status: '404' })).toBeGreaterThanOrEqual(1);
    const bucket = samplesOf(samples, 'platform_http_request_duration_seconds_bucket', {
      method: 'POST',
      route: '/operator-data-api/entities',
      status: '201',
      le: '+Inf',
    });
    expect(bucket).toHaveLength(1);
    expect(
      sumOf(samples, 'platform_http_request_duration_seconds_sum', { method: 'POST', route: '/operator-data-api/entities', status: '201' }),
    ).toBeGreaterThan(0);
  });

  it('counts rate-limit refusals by class', async () => {
    const before = sumOf(await apiMetrics(), 'platform_rate_limit_refusals_total', { class: 'analytics:read' });
    const read = () => http(`${app.url}/analytics-api/analytics/kpis`, { token: client.key });
    expect((await read()).status).toBe(200);
    const refused = await read();
    expect(refused.status).toBe(429);
    const after = await apiMetrics();
    expect(sumOf(after, 'platform_rate_limit_refusals_total', { class: 'analytics:read' })).toBe(before + 1);
    expect(samplesOf(after, 'platform_rate_limit_refusals_total').every((sample) => Object.keys(sample.labels).join() === 'class')).toBe(true);
  });

  it('reads the database pool of this process and the outbox from the database at scrape time', async () => {
    const samples = await apiMetrics();
    expect(sumOf(samples, 'platform_db_pool_max')).toBe(10);
    const pool = (state: string) => samplesOf(samples, 'platform_db_pool_connections', { state });
    for (const state of ['used', 'free', 'pending_acquire', 'pending_create']) expect(pool(state)).toHaveLength(1);
    expect(pool('used')[0]!.value + pool('free')[0]!.value).toBeLessThanOrEqual(10);
    expect(pool('free')[0]!.value + pool('used')[0]!.value).toBeGreaterThanOrEqual(1);

    for (const name of ['platform_outbox_backlog', 'platform_outbox_lag_seconds', 'platform_automation_runs_running']) {
      expect(samplesOf(samples, name)).toHaveLength(1);
      expect(sumOf(samples, name)).toBeGreaterThanOrEqual(0);
    }
    expect(sumOf(samples, 'platform_metrics_snapshot_failures_total')).toBe(0);
    expect(sumOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

it('the outbox figures are what waits for dispatch: count, and the age of the oldest', async () => {
  // Uncommitted, so no dispatcher takes the rows away while the snapshot reads them; one snapshot for both reads, so
  // other suites' events written or dispatched meanwhile do not move the count.
  const trx = await app.deps.db.transaction({ isolationLevel: 'repeatable read' });
  try {
    const before = await readMetricsSnapshot(trx);
    await trx('outbox_events').insert([
      { id: randomUUID(), operator_id: client.operator.operatorId, event: 'metrics.test', payload: {}, occurred_at: trx.raw("now() - interval '1 hour'") },
      { id: randomUUID(), operator_id: client.operator.operatorId, event: 'metrics.test', payload: {} },
      { id: randomUUID(), operator_id: client.operator.operatorId, event: 'metrics.test', payload: {}, dispatched_at: trx.fn.now() },
    ]);
    const after = await readMetricsSnapshot(trx);
    expect(after.outboxBacklog).toBe(before.outboxBacklog + 2);
    expect(after.outboxLagSeconds).toBeGreaterThanOrEqual(3600);
    expect(after.outboxLagSeconds).toBeLessThan(3700);
  } finally {
    await trx.rollback();
  }
});

describe('gateway calls, batch jobs and automation runs (worker and API series)', () => {
  let supplier: TestProvider;
  let failing: TestProvider;
  let flows: AutomationsClient;
  beforeAll(async () => {
    supplier = await startKycSupplier({ kind: 'none' });
    failing = await startProvider(() => ({ status: 500, body: { error: 'down' } }));
    flows = await automationsClient(app);
  });
  afterAll(async () => {
    await supplier?.close();
    await failing?.close();
  });

  it('the worker serves the SDK’s temporal_ series and its gateway calls by provider and outcome; the API its circuits by provider and state', async () => {
    const ok = await connectSupplier(app.url, client.key, { openapi: kycDocument(supplier.url, { kind: 'none' }), credentials: {} });
    expect((await callGateway(app.url, client.key, { connectionId: ok.connectionId, operation: 'kyc.status', params: { player_ref: 'p' } })).status).toBe(200);
    const down = await connectSupplier(app.url, client.key, { openapi: kycDocument(failing.url, { kind: 'none' }), credentials: {} });
    expect((await callGateway(app.url, client.key, { connectionId: down.connectionId, operation: 'kyc.status', params: { player_ref: 'p' } })).status).toBe(
      502,
    );

    const okProvider = new URL(supplier.url).origin;
    const downProvider = new URL(failing.url).origin;
    const samples = await scrapeUntil(workerMetricsUrl(), (s) => sumOf(s, 'platform_gateway_calls_total', { provider: downProvider }) > 0);
    expect(samples.some((sample) => sample.name.startsWith('temporal_'))).toBe(true);
    if (outside) expect(await isListening(workerPort, outside)).toBe(false);
    expect(sumOf(samples, 'platform_gateway_calls_total', { provider: okProvider, outcome: 'ok' })).toBe(1);
    expect(sumOf(samples, 'platform_gateway_calls_total', { provider: downProvider, outcome: 'http_5xx' })).toBe(1);

    const api = await apiMetrics();
    expect(sumOf(api, 'platform_gateway_circuits', { provider: downProvider, state: 'closed' })).toBe(1);
    expect(samplesOf(api, 'platform_gateway_circuits', { provider: okProvider })).toEqual([]);
  });

  it('the worker times batch jobs by type and status', async () => {
    const submitted = await client.call('/batch/entities', { body: [{ entityType: 'player', externalId: `batch-${randomUUID()}`, data: {} }] });
    expect(submitted.status).toBe(202);
    expect((await waitForJob(client, submitted.body.data.jobId)).status).toBe('completed');
    const samples = await scrapeUntil(workerMetricsUrl(), (s) => sumOf(s, 'platform_batch_job_duration_seconds_count') > 0);
    expect(sumOf(samples, 'platform_batch_job_duration_seconds_count', { type: 'batch_ingest_entities', status: 'completed' })).toBe(1);
    expect(sumOf(samples, 'platform_batch_job_duration_seconds_sum', { type: 'batch_ingest_entities', status: 'completed' })).toBeGreaterThan(0);
  });

  it('the API counts running automation runs, and finished ones it waited for, by source and status', async () => {
    const workflow = await flows.create(chain('Metrics wait', [{ id: 'wait', type: 'action.delay', params: { seconds: 2 } }]));
    const before = sumOf(await apiMetrics(), 'platform_automation_runs_finished_total', { source: 'manual', status: 'completed' });
    const run = flows.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
    const during = await scrapeUntil(metricsUrl(), (s) => sumOf(s, 'platform_automation_runs_running') >= 1, 5_000);
    expect(sumOf(during, 'platform_automation_runs_running')).toBeGreaterThanOrEqual(1);
    const finished = await run;
    expect(finished.status).toBe(200);
    expect(finished.body.data.status).toBe('completed');
    expect(sumOf(await apiMetrics(), 'platform_automation_runs_finished_total', { source: 'manual', status: 'completed' })).toBe(before + 1);
  });

  it('the worker counts the runs that stored their own end, by source and status', async () => {
    const outlasting = await automationsClient(plain);
    const workflow = await outlasting.create(chain('Metrics outlasting', [{ id: 'wait', type: 'action.delay', params: { seconds: 1 } }]));
    const started = await outlasting.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const samples = await scrapeUntil(workerMetricsUrl(), (s) => sumOf(s, 'platform_automation_runs_finished_total') > 0);
    expect(sumOf(samples, 'platform_automation_runs_finished_total', { source: 'manual', status: 'completed' })).toBe(1);
  });

  it('a run the API refuses as it begins it is counted by the API as a failed run', async () => {
    const required = { id: 'start', type: 'trigger.manual', params: { inputSchema: { type: 'object', properties: {}, required: ['playerId'] } } };
    const workflow = await flows.create({ name: 'Metrics refused', nodes: [required], edges: [] });
    const before = sumOf(await apiMetrics(), 'platform_automation_runs_finished_total', { source: 'manual', status: 'failed' });
    const refused = await flows.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
    expect(refused.body.data).toMatchObject({ status: 'failed', error: { code: 'MISSING_TRIGGER_FIELD' } });
    expect(sumOf(await apiMetrics(), 'platform_automation_runs_finished_total', { source: 'manual', status: 'failed' })).toBe(before + 1);
  });
});
