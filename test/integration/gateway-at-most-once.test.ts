import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { http } from '../helpers/http';
import { startProvider, type ReceivedRequest, type TestProvider } from '../helpers/providerServer';
import { connectSupplier, kycDocument, KYC_SCHEMA_MAP } from '../helpers/suppliers';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';
import { gatewayLaneWorkflow } from '../../workflows/gatewayCall';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A KYC supplier whose POST /v1/verifications waits while `hold` is set, and counts what it receives. */
async function startSupplier() {
  const state = { hold: false };
  const provider = await startProvider(async (request) => {
    if (request.path === '/v1/verifications' && request.method === 'POST') {
      while (state.hold) await sleep(50);
      return { status: 201, body: { verification_id: `ver_${randomUUID().slice(0, 8)}`, player_ref: request.json?.player_ref, kyc_state: 'pending' } };
    }
    const player = /^\/v1\/players\/([^/]+)\/kyc$/.exec(request.path)?.[1];
    if (player) return { status: 200, body: { player_ref: player, kyc_state: 'approved' } };
    return { status: 404, body: {} };
  });
  return { provider, state, posts: () => provider.requests.filter((request: ReceivedRequest) => request.method === 'POST') };
}

describe('a gateway POST is sent at most once, and the caller knows what happened', () => {
  const queue = `gateway-once-${randomUUID()}`;
  let worker: WorkerProcess;
  let app: TestApp;
  let alice: DataClient;
  let bob: DataClient;
  let supplier: Awaited<ReturnType<typeof startSupplier>>;
  let connectionId: string;
  const gateway = (body: unknown, headers: Record<string, string> = {}, key = alice.key) => http(`${app.url}/gateway`, { token: key, body, headers });
  const verify = { operation: 'verification.start', params: { playerId: 'p-1', documentType: 'passport' } };

  beforeAll(async () => {
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true', GATEWAY_TIMEOUT_MS: '2000', GATEWAY_MAX_ATTEMPTS: '1' });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, GATEWAY_TIMEOUT_MS: '2000', GATEWAY_MAX_ATTEMPTS: '1' });
    alice = await dataClient(app);
    bob = await dataClient(app);
    supplier = await startSupplier();
    ({ connectionId } = await connectSupplier(app.url, alice.key, {
      openapi: kycDocument(supplier.provider.url, { kind: 'none' }),
      schemaMap: KYC_SCHEMA_MAP,
      credentials: {},
    }));
  });
  afterAll(async () => {
    supplier.state.hold = false;
    await app?.close();
    await worker?.stop();
    await supplier?.provider.close();
  });

  it('every call reaches the provider with its call id as Idempotency-Key, named back in Gateway-Call-Id', async () => {
    const response = await gateway({ connectionId, operation: 'kyc.status', params: { playerId: 'p-7' } });
    expect(response.status).toBe(200);
    const callId = response.headers.get('gateway-call-id');
    expect(callId).toMatch(/^gwc_[0-9a-f]{32}$/);
    expect(supplier.provider.requests.at(-1)!.headers['idempotency-key']).toBe(callId);
  });

  it('a POST repeated with its Idempotency-Key gets the recorded answer and is not sent again; the key names one call only', async () => {
    const key = `order-${randomUUID()}`;
    const before = supplier.posts().length;
    const first = await gateway({ connectionId, ...verify }, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    const callId = first.headers.get('gateway-call-id')!;
    const again = await gateway({ connectionId, ...verify }, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('gateway-call-id')).toBe(callId);
    expect(again.body.data).toEqual(first.body.data);
    expect(supplier.posts().length - before).toBe(1);
    expect(supplier.posts().at(-1)!.headers['idempotency-key']).toBe(callId);

    const other = await gateway({ connectionId, operation: 'kyc.status', params: { playerId: 'p-1' } }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_MISMATCH');

    const read = await http(`${app.url}/gateway/calls/${callId}`, { token: alice.key });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      callId,
      state: 'answered',
      connectionId,
      operation: 'verification.start',
      method: 'POST',
      outcome: { ok: true, status: 201, data: first.body.data },
    });
    expect((await http(`${app.url}/gateway/calls/${callId}`, { token: bob.key })).body).toEqual({
      success: false,
      error: { code: 'GATEWAY_CALL_NOT_FOUND', message: 'Gateway call not found' },
    });
  });

  it('a worker killed while the POST is at the provider: 504 GATEWAY_OUTCOME_UNKNOWN naming the call; a retry with the key hears the same, not sent', async () => {
    const key = `order-${randomUUID()}`;
    const before = supplier.posts().length;
    supplier.state.hold = true;
    const pending = gateway({ connectionId, ...verify }, { 'idempotency-key': key });
    await until('the POST at the provider', () => supplier.posts().length > before);
    await worker.kill();
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true', GATEWAY_TIMEOUT_MS: '2000', GATEWAY_MAX_ATTEMPTS: '1' });
    const response = await pending;
    supplier.state.hold = false;
    expect(response.status).toBe(504);
    const callId = response.headers.get('gateway-call-id')!;
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'GATEWAY_OUTCOME_UNKNOWN',
        message: `Call ${callId} was sent to the provider and its outcome is not known yet; do not retry it: read it at GET /gateway/calls/${callId}`,
        details: { callId },
      },
    });
    expect((await http(`${app.url}/gateway/calls/${callId}`, { token: alice.key })).body.data).toMatchObject({
      callId,
      state: 'outcome_unknown',
      outcome: null,
      error: { code: 'GATEWAY_OUTCOME_UNKNOWN', message: response.body.error.message },
    });
    const retried = await gateway({ connectionId, ...verify }, { 'idempotency-key': key });
    expect(retried.status).toBe(504);
    expect(retried.body).toEqual(response.body);
    await sleep(1_000);
    expect(supplier.posts().length - before).toBe(1);
  }, 60_000);

  it('a lane that cannot run is replaced within seconds, and the call it never accepted is never sent by it', async () => {
    const deadQueue = `nobody-${randomUUID()}`;
    const laneId = `gateway-lane-${bob.operator.operatorId}-${app.deps.temporal.instanceId}-0`;
    await app.deps.temporal.client.workflow.start(gatewayLaneWorkflow, {
      workflowId: laneId,
      taskQueue: deadQueue,
      args: [{ operatorId: bob.operator.operatorId }],
    });
    const { connectionId: bobConnection } = await connectSupplier(app.url, bob.key, {
      openapi: kycDocument(supplier.provider.url, { kind: 'none' }),
      schemaMap: KYC_SCHEMA_MAP,
      credentials: {},
    });
    const before = supplier.provider.requests.length;
    const started = Date.now();
    const response = await gateway({ connectionId: bobConnection, operation: 'kyc.status', params: { playerId: 'p-stuck' } }, {}, bob.key);
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    // Noticing the stuck lane takes 6–7 s; a new lane and the call fit well within the rest on a loaded machine, and
    // far within the caller's whole deadline (over 30 s), which a call stuck behind the lane would reach.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(supplier.provider.requests.length - before).toBe(1);
    const replacement = await app.deps.temporal.client.workflow
      .getHandle(`gateway-lane-${bob.operator.operatorId}-${app.deps.temporal.instanceId}-1`)
      .describe();
    expect(replacement.taskQueue).toBe(queue);

    const rescuer = await spawnWorker({ TEMPORAL_TASK_QUEUE: deadQueue, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true' });
    try {
      await until('the stale lane to run a task', async () => {
        const history = await app.deps.temporal.client.workflow.getHandle(laneId).fetchHistory();
        return (history.events ?? []).some((event) => event.workflowTaskCompletedEventAttributes);
      });
      await sleep(1_000);
      expect(supplier.provider.requests.length - before).toBe(1);
    } finally {
      await rescuer.stop();
      await app.deps.temporal.client.workflow.getHandle(laneId).terminate('test over');
    }
  }, 60_000);
});

describe('a gateway call no worker can take', () => {
  let app: TestApp;
  let client: DataClient;
  let supplier: TestProvider;

  beforeAll(async () => {
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: `no-worker-${randomUUID()}` });
    client = await dataClient(app);
    supplier = (await startSupplier()).provider;
  });
  afterAll(async () => {
    await app?.close();
    await supplier?.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE (nothing was sent: retry) after two lanes stalled, not after the full deadline', async () => {
    const { connectionId } = await connectSupplier(app.url, client.key, {
      openapi: kycDocument(supplier.url, { kind: 'none' }),
      schemaMap: KYC_SCHEMA_MAP,
      credentials: {},
    });
    const started = Date.now();
    const response = await http(`${app.url}/gateway`, {
      token: client.key,
      body: { connectionId, operation: 'verification.start', params: { playerId: 'p-1' } },
    });
    expect(response.status).toBe(503);
    expect(response.body.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable; retry shortly' });
    expect(response.headers.get('retry-after')).toBe('5');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(supplier.requests).toEqual([]);
  }, 40_000);
});
