import { prefixedId } from '../../core/ids';
import { GatewayLanes, runGatewayCall } from '../../temporal/gatewayCalls';
import { LANE_CALLS_PER_RUN } from '../../workflows/gatewayCall';
import { startTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import type { ProviderAuth, TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, credentialsFor, KYC_SCHEMA_MAP, kycDocument, startKycSupplier } from '../helpers/suppliers';

const auth: ProviderAuth = { kind: 'apiKeyHeader', name: 'X-Api-Key', value: 'kyc-key-123' };

let app: TestApp;
let kyc: TestProvider;
let alice: TestOperator;
let bob: TestOperator;
let aliceKey: string;
let bobKey: string;
let connectionId: string;

beforeAll(async () => {
  app = await startTestApp();
  kyc = await startKycSupplier(auth);
  [alice, bob] = await Promise.all([signupOperator(app.url, 'Alice Casino'), signupOperator(app.url, 'Bob Bets')]);
  [aliceKey, bobKey] = await Promise.all([createApiKey(app.url, alice).then((k) => k.key), createApiKey(app.url, bob).then((k) => k.key)]);
  ({ connectionId } = await connectSupplier(app.url, aliceKey, {
    openapi: kycDocument(kyc.url, auth),
    schemaMap: KYC_SCHEMA_MAP,
    credentials: credentialsFor(auth),
  }));
});
afterAll(async () => {
  await app.close();
  await kyc.close();
});

const coded = (code: string, message: string) => ({ success: false, error: { code, message } });
const call = (body: unknown, token = aliceKey) => callGateway(app.url, token, body);
const verifyBody = () => ({ connectionId, operation: 'kyc.status', params: { playerId: 'p-1' } });

async function failedEvents(operatorId: string) {
  const rows = await app.deps.db('outbox_events').where({ operator_id: operatorId, event: 'gateway.request.failed' }).orderBy('seq');
  return rows.map((row) => row.payload);
}

describe('protection (spec 5 rule 3)', () => {
  it('401 AUTH_MISSING without an Authorization header', async () => {
    const response = await http(`${app.url}/gateway`, { body: verifyBody() });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(coded('AUTH_MISSING', 'Authorization header is required'));
  });

  it('401 AUTH_INVALID for an unknown key, a malformed header and a session token', async () => {
    for (const authorization of [`Bearer svc_live_${'f'.repeat(64)}`, 'Bearer not-a-key', 'Basic abc', `Bearer ${alice.accessToken}`]) {
      const response = await http(`${app.url}/gateway`, { body: verifyBody(), headers: { authorization } });
      expect([authorization.slice(0, 12), response.status, response.body]).toEqual([authorization.slice(0, 12), 401, coded('AUTH_INVALID', 'Invalid API key')]);
    }
  });

  it('401 AUTH_REVOKED for a revoked key', async () => {
    const spare = await createApiKey(app.url, alice, 'to revoke');
    expect((await http(`${app.url}/api-keys?id=${spare.id}`, { method: 'DELETE', token: alice.accessToken })).status).toBe(200);
    const response = await call(verifyBody(), spare.key);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(coded('AUTH_REVOKED', 'API key has been revoked'));
  });

  it('405 METHOD_NOT_ALLOWED for any method other than POST, with or without the /functions/v1 prefix', async () => {
    for (const path of ['/gateway', '/functions/v1/gateway']) {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
        const response = await http(`${app.url}${path}`, { method, token: aliceKey });
        expect([path, method, response.status, response.body]).toEqual([path, method, 405, coded('METHOD_NOT_ALLOWED', 'Method not allowed')]);
      }
    }
  });
});

describe('error rows of spec 7.3', () => {
  it('400 MISSING_FIELDS when connectionId or operation is missing or blank', async () => {
    const none = await call({});
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'MISSING_FIELDS', message: 'Missing required fields: connectionId, operation' });
    const blank = await call({ connectionId, operation: '  ' });
    expect(blank.body.error).toMatchObject({ code: 'MISSING_FIELDS', message: 'Missing required fields: operation' });
    const noBody = await http(`${app.url}/gateway`, { method: 'POST', token: aliceKey });
    expect(noBody.body.error.code).toBe('MISSING_FIELDS');
  });

  it('400 VALIDATION_FAILED for an operation that is not entity.action, or params that are not an object', async () => {
    const operation = await call({ connectionId, operation: 'verify' });
    expect(operation.status).toBe(400);
    expect(operation.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid input: operation: must be entity.action, e.g. player.verify' });
    const params = await call({ connectionId, operation: 'kyc.status', params: [1] });
    expect(params.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('404 CONNECTION_NOT_FOUND for an unknown connection', async () => {
    const response = await call({ connectionId: 'conn_unknown', operation: 'kyc.status' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(coded('CONNECTION_NOT_FOUND', 'Connection conn_unknown not found'));
  });

  it('400 CONNECTION_INACTIVE for a deactivated connection; it works again once reactivated', async () => {
    const patch = (active: boolean) => http(`${app.url}/connections-api/connections/${connectionId}`, { method: 'PATCH', token: aliceKey, body: { active } });
    await patch(false);
    const response = await call(verifyBody());
    expect(response.status).toBe(400);
    expect(response.body).toEqual(coded('CONNECTION_INACTIVE', `Connection ${connectionId} is not active`));
    await patch(true);
    expect((await call(verifyBody())).status).toBe(200);
  });

  it('400 BLUEPRINT_NO_SPEC when the connector has no OpenAPI document', async () => {
    const bare = await connectSupplier(app.url, aliceKey, { credentials: credentialsFor(auth), baseUrl: kyc.url });
    const response = await call({ connectionId: bare.connectionId, operation: 'kyc.status' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(coded('BLUEPRINT_NO_SPEC', `Connector ${bare.connectorId} has no OpenAPI spec`));
  });

  it("404 CONNECTOR_NOT_FOUND when the connection's connector was deleted", async () => {
    const doomed = await connectSupplier(app.url, aliceKey, { openapi: kycDocument(kyc.url, auth), credentials: credentialsFor(auth) });
    await http(`${app.url}/connections-api/connectors/${doomed.connectorId}`, { method: 'DELETE', token: aliceKey });
    const response = await call({ connectionId: doomed.connectionId, operation: 'kyc.status' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(coded('CONNECTOR_NOT_FOUND', `The connector of connection ${doomed.connectionId} no longer exists`));
  });

  it('404 OPERATION_NOT_FOUND when no endpoint matches, without contacting the provider', async () => {
    const before = kyc.requests.length;
    const response = await call({ connectionId, operation: 'wallet.delete', params: {} });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(
      coded(
        'OPERATION_NOT_FOUND',
        `No endpoint of connector ${(await app.deps.db('connections').where({ id: connectionId }).first()).connector_id} matches operation 'wallet.delete'`,
      ),
    );
    expect(kyc.requests.length).toBe(before);
  });

  it('400 MISSING_FIELDS when a path parameter of the matched endpoint cannot be filled', async () => {
    for (const params of [undefined, null, { unrelated: 1 }]) {
      const response = await call({ connectionId, operation: 'kyc.status', params });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(coded('MISSING_FIELDS', 'Missing params for GET /players/{player_ref}/kyc: player_ref'));
    }
  });

  it('502 PROVIDER_ERROR with the provider body for a non-2xx answer', async () => {
    const response = await call({ connectionId, operation: 'kyc.status', params: { playerId: 'unknown' } });
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'PROVIDER_ERROR', message: 'Provider returned HTTP 404' },
      data: { error: 'player not found', player_ref: 'unknown' },
      latencyMs: expect.any(Number),
    });
  });

  it('records every refusal as gateway.request.failed with its code', async () => {
    const codes = (await failedEvents(alice.operatorId)).map((event) => event.data.code ?? event.data.status);
    expect(codes).toEqual(
      expect.arrayContaining([
        'CONNECTION_NOT_FOUND',
        'CONNECTION_INACTIVE',
        'BLUEPRINT_NO_SPEC',
        'CONNECTOR_NOT_FOUND',
        'OPERATION_NOT_FOUND',
        'MISSING_FIELDS',
        404,
      ]),
    );
  });
});

describe('429 and 500', () => {
  it('429 RATE_LIMITED with Retry-After beyond the gateway:execute limit', async () => {
    const limited = await startTestApp({ RATE_LIMIT_GATEWAY_EXECUTE: '2' });
    try {
      const operator = await signupOperator(limited.url, 'Limited');
      const key = (await createApiKey(limited.url, operator)).key;
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push(await callGateway(limited.url, key, { connectionId: 'conn_x', operation: 'kyc.status' }));
      expect(statuses.map((response) => response.status)).toEqual([404, 404, 429]);
      expect(statuses[2]!.body.error.code).toBe('RATE_LIMITED');
      expect(Number(statuses[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('500 INTERNAL_ERROR without internals when the workflow cannot run', async () => {
    const logLines: string[] = [];
    const broken = await startTestApp({ TEMPORAL_NAMESPACE: 'no-such-namespace' }, { logLines });
    try {
      const operator = await signupOperator(broken.url, 'Broken');
      const key = (await createApiKey(broken.url, operator)).key;
      const response = await callGateway(broken.url, key, { connectionId: 'conn_x', operation: 'kyc.status' });
      expect(response.status).toBe(500);
      expect(response.body).toEqual(coded('INTERNAL_ERROR', 'Internal server error'));
      expect(response.text).not.toMatch(/namespace|stack/i);
      expect(logLines.some((line) => line.includes('NamespaceNotFoundError'))).toBe(true);
    } finally {
      await broken.close();
    }
  });
});

describe('tenant isolation', () => {
  it("404 CONNECTION_NOT_FOUND for another operator's connection; the provider is never called", async () => {
    const before = kyc.requests.length;
    const response = await call(verifyBody(), bobKey);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(coded('CONNECTION_NOT_FOUND', `Connection ${connectionId} not found`));
    expect(kyc.requests.length).toBe(before);
    const bobEvents = await failedEvents(bob.operatorId);
    expect(bobEvents.at(-1)).toMatchObject({ operatorId: bob.operatorId, data: { connectionId, code: 'CONNECTION_NOT_FOUND' } });
    const aliceCount = (await failedEvents(alice.operatorId)).filter(
      (event) => event.data.code === 'CONNECTION_NOT_FOUND' && event.data.connectionId === connectionId,
    );
    expect(aliceCount).toEqual([]);
  });
});

describe('the door into Temporal (temporal/gatewayCalls.ts)', () => {
  const limits = { timeoutMs: 5_000, maxAttempts: 2 };
  const apiCall = () => ({ callId: prefixedId('gwc'), caller: 'api' as const });

  it("runs a call as an Update of the operator's lane and returns the provider outcome", async () => {
    const outcome = await runGatewayCall(
      app.deps.temporal,
      { ...apiCall(), operatorId: alice.operatorId, connectionId, operation: 'kyc.status', params: { playerId: 'p-9' } },
      limits,
    );
    expect(outcome).toMatchObject({ kind: 'completed', result: { ok: true, status: 200, attempts: 1, data: { playerId: 'p-9', status: 'approved' } } });
    const laneId = `gateway-lane-${alice.operatorId}-${app.deps.temporal.instanceId}-0`;
    const description = await app.deps.temporal.client.workflow.getHandle(laneId).describe();
    expect(description).toMatchObject({ type: 'gatewayLaneWorkflow', status: { name: 'RUNNING' } });
    const history = await app.deps.temporal.client.workflow.getHandle(laneId).fetchHistory();
    const updates = (history.events ?? []).filter((event) => event.workflowExecutionUpdateCompletedEventAttributes);
    expect(updates.length).toBeGreaterThanOrEqual(1);
  });

  it('arms its idle timer once per window, not once per call', async () => {
    const lanes = new GatewayLanes({ client: app.deps.temporal.client, taskQueue: app.deps.temporal.taskQueue, instanceId: `idle${Date.now()}` });
    for (let n = 0; n < 5; n += 1)
      await runGatewayCall(
        { gatewayLanes: lanes },
        { ...apiCall(), operatorId: alice.operatorId, connectionId, operation: 'kyc.status', params: { playerId: `idle-${n}` } },
        limits,
      );
    const history = await app.deps.temporal.client.workflow.getHandle(`gateway-lane-${alice.operatorId}-${lanes.instanceId}-0`).fetchHistory();
    const count = (has: (event: NonNullable<typeof history.events>[number]) => unknown) => (history.events ?? []).filter(has).length;
    expect(count((event) => event.workflowExecutionUpdateCompletedEventAttributes)).toBe(5);
    expect(count((event) => event.timerStartedEventAttributes)).toBe(1);
    expect(count((event) => event.timerCanceledEventAttributes)).toBe(0);
  });

  it('answers a refusal as a result typed with the spec code, scoped by operator', async () => {
    const outcome = await runGatewayCall(app.deps.temporal, { ...apiCall(), operatorId: bob.operatorId, connectionId, operation: 'kyc.status' }, limits);
    expect(outcome).toEqual({ kind: 'refused', code: 'CONNECTION_NOT_FOUND', message: `Connection ${connectionId} not found` });
  });

  it('continues lanes as new without losing or repeating a call, calls arriving while a lane rolls over included', async () => {
    const lanes = new GatewayLanes(
      { client: app.deps.temporal.client, taskQueue: app.deps.temporal.taskQueue, instanceId: `roll${Date.now()}` },
      { callsPerRun: 10 },
    );
    const before = kyc.requests.length;
    let next = 0;
    const outcomes: unknown[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < 120) {
          const playerId = `roll-${next++}`;
          outcomes.push(
            await runGatewayCall(
              { gatewayLanes: lanes },
              { ...apiCall(), operatorId: alice.operatorId, connectionId, operation: 'kyc.status', params: { playerId } },
              limits,
            ),
          );
        }
      }),
    );
    expect(outcomes).toHaveLength(120);
    expect(outcomes.every((outcome) => (outcome as { result?: { ok: boolean } }).result?.ok === true)).toBe(true);
    expect(kyc.requests.length - before).toBe(120);
    const histories = await Promise.all(
      [0, 1, 2, 3].map((n) =>
        app.deps.temporal.client.workflow
          .getHandle(`gateway-lane-${alice.operatorId}-${lanes.instanceId}-${n}`)
          .describe()
          .catch(() => null),
      ),
    );
    const rolled = histories.filter((lane) => lane !== null && lane.runId !== lane.raw.workflowExecutionInfo?.firstRunId);
    expect(rolled.length).toBeGreaterThan(0);
  });

  it('starts lanes that continue as new after LANE_CALLS_PER_RUN calls when the starter names no other count', async () => {
    const lanes = new GatewayLanes({ client: app.deps.temporal.client, taskQueue: app.deps.temporal.taskQueue, instanceId: `per-run${Date.now()}` });
    const handle = app.deps.temporal.client.workflow.getHandle(`gateway-lane-${alice.operatorId}-${lanes.instanceId}-0`);
    const call = (n: number) =>
      runGatewayCall(
        { gatewayLanes: lanes },
        { ...apiCall(), operatorId: alice.operatorId, connectionId, operation: 'kyc.status', params: { playerId: `per-run-${n}` } },
        limits,
      );
    for (let n = 0; n < LANE_CALLS_PER_RUN - 1; n += 1) expect(await call(n)).toMatchObject({ kind: 'completed' });
    const first = await handle.describe();
    expect(first.runId).toBe(first.raw.workflowExecutionInfo?.firstRunId);
    expect(await call(LANE_CALLS_PER_RUN - 1)).toMatchObject({ kind: 'completed' });
    await eventually(async () => (await handle.describe()).runId !== first.runId);
  });

  it('starts the lane again when it has ended', async () => {
    const laneId = `gateway-lane-${alice.operatorId}-${app.deps.temporal.instanceId}-0`;
    await runGatewayCall(
      app.deps.temporal,
      { ...apiCall(), operatorId: alice.operatorId, connectionId, operation: 'kyc.status', params: { playerId: 'p-1' } },
      limits,
    );
    await app.deps.temporal.client.workflow.getHandle(laneId).terminate('test: the lane ended');
    const outcome = await runGatewayCall(
      app.deps.temporal,
      { ...apiCall(), operatorId: alice.operatorId, connectionId, operation: 'kyc.status', params: { playerId: 'p-2' } },
      limits,
    );
    expect(outcome).toMatchObject({ kind: 'completed', result: { ok: true, data: { playerId: 'p-2' } } });
    expect(await app.deps.temporal.client.workflow.getHandle(laneId).describe()).toMatchObject({ status: { name: 'RUNNING' } });
  });
});
