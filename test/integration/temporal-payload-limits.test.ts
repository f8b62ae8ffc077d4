import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { callGateway, connectSupplier, kycDocument, KYC_SCHEMA_MAP } from '../helpers/suppliers';
import { decodedHistoryText, payloadsIn, rawHistory } from '../helpers/temporalHistory';
import { CLAIM_CHECK_ENCODING } from '../../temporal/claimCheckCodec';
import { purgeTemporalPayloads } from '../../db/queries/temporalPayloads';
import { startAutomationRun } from '../../temporal/automationRuns';

const sleepMs = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const THREE_MB = 3 * 1024 * 1024;
const auth = { kind: 'none' } as const;

/** A KYC answer of about `bytes` bytes: the usual fields and a long document list. */
function bigAnswer(ref: string, bytes: number) {
  const document = { doc_type: 'passport', kyc_state: 'approved', note: 'x'.repeat(200) };
  const count = Math.ceil(bytes / JSON.stringify(document).length);
  return { player_ref: ref, kyc_state: 'approved', documents: Array.from({ length: count }, () => document) };
}

const largestPayload = (history: unknown) => Math.max(...payloadsIn(history).map((payload) => payload.data?.byteLength ?? 0));
const claims = (history: unknown) =>
  payloadsIn(history).filter((payload) => Buffer.from(payload.metadata?.encoding ?? []).toString() === CLAIM_CHECK_ENCODING).length;

describe("Temporal's payload limits cannot end a lane or a run", () => {
  let app: TestApp;
  let client: AutomationsClient;
  let supplier: TestProvider;
  let connectionId: string;

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
    supplier = await startProvider((request) => {
      const player = /^\/v1\/players\/([^/]+)\/kyc$/.exec(request.path)?.[1];
      if (player?.startsWith('big-')) return { status: 200, body: bigAnswer(player, THREE_MB) };
      if (player) return { status: 200, body: { player_ref: player, kyc_state: 'approved' } };
      if (request.path === '/v1/echo') return { status: 200, body: { size: request.body.length } };
      if (request.path.startsWith('/v1/missing')) return { status: 404, body: { error: 'z'.repeat(400 * 1024) } };
      return { status: 404, body: {} };
    });
    expect((await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } })).status).toBe(201);
    ({ connectionId } = await connectSupplier(app.url, client.key, { openapi: kycDocument(supplier.url, auth), schemaMap: KYC_SCHEMA_MAP, credentials: {} }));
  });
  afterAll(async () => {
    await app?.close();
    await supplier?.close();
  });

  it('a gateway GET answered with 3 MB returns 200 whole, and the next call on the connection answers at once', async () => {
    const big = await callGateway(app.url, client.key, { connectionId, operation: 'kyc.status', params: { playerId: 'big-1' } });
    expect(big.status).toBe(200);
    const sent = bigAnswer('big-1', THREE_MB);
    expect(big.body.data).toMatchObject({ playerId: 'big-1', status: 'approved' });
    expect(big.body.data.documents).toHaveLength(sent.documents.length);
    expect(big.body.data.documents.at(-1)).toEqual({ documentType: 'passport', status: 'approved', note: 'x'.repeat(200) });
    expect(big.text.length).toBeGreaterThan(THREE_MB);
    const callId = big.headers.get('gateway-call-id')!;
    expect(callId).toMatch(/^gwc_[0-9a-f]{32}$/);
    // Handed over through PostgreSQL, read once, and gone.
    expect(await app.deps.db('gateway_calls').where({ id: callId }).first()).toBeUndefined();

    const started = performance.now();
    const next = await callGateway(app.url, client.key, { connectionId, operation: 'kyc.status', params: { playerId: 'p-2' } });
    expect(next.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);

    const laneId = `gateway-lane-${client.operator.operatorId}-${app.deps.temporal.instanceId}-0`;
    const { history } = await rawHistory(app, laneId);
    expect(largestPayload(history)).toBeLessThanOrEqual(app.deps.config.TEMPORAL_PAYLOAD_MAX_BYTES);
    expect((await app.deps.temporal.client.workflow.getHandle(laneId).describe()).status.name).toBe('RUNNING');
  });

  it('a run whose gateway action gets 3 MB keeps it as a node output; history holds references, the record the whole answer', async () => {
    const automation = await client.create(
      chain('Big KYC', [
        { id: 'kyc', type: 'action.gateway', params: { connectionId, operation: 'kyc.status', params: { playerId: '{{ trigger.playerId }}' } } },
        { id: 'count', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: '{{ $count(nodes.kyc.data.documents) }}' } },
      ]),
    );
    const response = await client.wf(`/workflows/${automation.id}/test`, { method: 'POST', body: { playerId: 'big-2' } });
    expect(response.status).toBe(200);
    const run = response.body.data;
    expect(run.status).toBe('completed');
    const documents = bigAnswer('big-2', THREE_MB).documents.length;
    // The record holds the 3 MB answer truncated; the step's output endpoint streams it whole.
    expect(run.nodes[1].output).toMatchObject({ _truncated: true, bytes: expect.any(Number) });
    expect((await client.wf(`/runs/${run.id}/steps/kyc/output`)).body.data.documents).toHaveLength(documents);
    expect(run.nodes[2].output).toEqual({ externalId: 'p-1', key: 'risk_score', value: documents });

    const { history } = await rawHistory(app, run.temporalWorkflowId);
    expect(largestPayload(history)).toBeLessThanOrEqual(app.deps.config.TEMPORAL_PAYLOAD_MAX_BYTES);
    // The gateway's answer reached the workflow as a reference: nothing needed the claim check.
    expect(claims(history)).toBe(0);
    expect((await decodedHistoryText(app, run.temporalWorkflowId)).match(/\$payloadRef/g)?.length).toBeGreaterThan(0);
    const stored = await app.deps.db('temporal_payloads').where({ owner: run.temporalWorkflowId }).select('bytes', 'expires_at');
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((row) => row.expires_at === null)).toBe(true);
    // The run hands its outcome back to the API that waits for it; the 3 MB in it is still a reference, its result small.
    const result = await app.deps.temporal.client.workflow.getHandle(run.temporalWorkflowId).result();
    expect(result).toMatchObject({ kind: 'ended', runId: run.id, outcome: { status: 'completed' } });
    expect(JSON.stringify(result)).toContain('$payloadRef');
    expect(JSON.stringify(result).length).toBeLessThan(app.deps.config.TEMPORAL_PAYLOAD_MAX_BYTES);
  });

  it('a large trigger payload, a large request body and a large failure detail all travel by reference', async () => {
    const big = 'y'.repeat(600 * 1024);
    const automation = await client.create(
      chain('Big body', [
        { id: 'send', type: 'action.http_request', params: { method: 'POST', url: `${supplier.url}/v1/echo`, body: { text: '{{ trigger.text }}' } } },
        {
          id: 'fail',
          type: 'action.http_request',
          // Computed, so the sandbox evaluates it over the referenced trigger (cheaply: `$substring` of 600 KiB spent
          // 20–40 ms of the 50 ms budget, and a cold sandbox process under the full suite's load went past it).
          params: { method: 'GET', url: `${supplier.url}/v1/missing-${randomUUID()}?q={{ $contains(trigger.text, "y") }}` },
        },
      ]),
    );
    const response = await client.wf(`/workflows/${automation.id}/test`, { method: 'POST', body: { text: big } });
    expect(response.status).toBe(200);
    const run = response.body.data;
    expect(run.nodes[1]).toMatchObject({ status: 'completed', output: { status: 200, body: { size: big.length + '{"text":""}'.length } } });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'HTTP_404', nodeId: 'fail' } });
    expect(run.nodes[2].input.url).toMatch(/\?q=true$/);
    expect(run.nodes[2].output).toMatchObject({ _truncated: true });
    expect((await client.wf(`/runs/${run.id}/steps/fail/output`)).body.body.error).toHaveLength(400 * 1024);
    const { history } = await rawHistory(app, run.temporalWorkflowId);
    expect(largestPayload(history)).toBeLessThanOrEqual(app.deps.config.TEMPORAL_PAYLOAD_MAX_BYTES);
  });

  it('the retention run deletes stored payloads no history can need: expired, of runs closed past the grace, of old other owners', async () => {
    const { db } = app.deps;
    const ago = (ms: number) => new Date(Date.now() - ms);
    const finished = await client.create(
      chain('Quick', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: 1 } }]),
    );
    const closed = (await client.wf(`/workflows/${finished.id}/test`, { method: 'POST', body: {} })).body.data;
    const sleeper = await client.create(chain('Sleeper', [{ id: 'wait', type: 'action.delay', params: { seconds: 3600 } }]));
    const { handle } = await startAutomationRun(app.deps.temporal, {
      operatorId: client.operator.operatorId,
      automationId: sleeper.id,
      source: 'manual',
      input: {},
    });
    const running = { temporal_workflow_id: handle.workflowId };
    const deadline = Date.now() + 10_000;
    while (!(await db('automation_runs').where({ temporal_workflow_id: handle.workflowId, status: 'running' }).first()) && Date.now() < deadline)
      await sleepMs(50);
    const id = () => randomUUID();
    const rows = [
      { id: id(), owner: `gateway-lane-x-${randomUUID()}`, expires_at: ago(1_000), created_at: ago(3_600_000), keep: false },
      { id: id(), owner: `gateway-lane-x-${randomUUID()}`, expires_at: new Date(Date.now() + 60_000), created_at: ago(60_000), keep: true },
      { id: id(), owner: closed.temporalWorkflowId, expires_at: null, created_at: ago(2_000), keep: true },
      { id: id(), owner: `automation-manual-run_${randomUUID()}`, expires_at: null, created_at: ago(2 * 3_600_000), keep: false },
      { id: id(), owner: `automation-manual-run_${randomUUID()}`, expires_at: null, created_at: ago(10_000), keep: true },
      { id: id(), owner: `job_${randomUUID()}`, expires_at: null, created_at: ago(2 * 3_600_000), keep: false },
      { id: id(), owner: `job_${randomUUID()}`, expires_at: null, created_at: ago(10_000), keep: true },
      { id: id(), owner: running.temporal_workflow_id, expires_at: null, created_at: ago(10_000), keep: true },
    ];
    await db('temporal_payloads').insert(rows.map(({ keep: _keep, ...row }) => ({ ...row, sealed: Buffer.from('x'), bytes: 1 })));
    // The closed run finished just now: inside a grace of an hour, outside one of a millisecond. The purge is
    // platform-wide, so its ages stay far past any payload the suites running alongside still need.
    await purgeTemporalPayloads(db, { closedRunGraceMs: 3_600_000, otherOwnersMaxAgeMs: 3_600_000 });
    const left = new Set(
      (await db('temporal_payloads')
        .whereIn(
          'id',
          rows.map((row) => row.id),
        )
        .pluck('id')) as string[],
    );
    expect(rows.map((row) => left.has(row.id))).toEqual(rows.map((row) => row.keep));
    await handle.cancel();
  });
});
