import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { connectSupplier, kycDocument, KYC_SCHEMA_MAP } from '../helpers/suppliers';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';
import { randomBytes } from 'node:crypto';
import { INLINE_VALUE_BYTES, PREVIEW_CHARS, RECORD_OPEN_MAX_BYTES } from '../../core/automations/runValues';
import { sealRunResult } from '../../core/runSeal';
import { finishRun, insertRun } from '../../db/queries/automationRuns';

const MiB = 1024 * 1024;
/** The template: a 16-character string doubled twenty times, 16 MB. */
const doubled = (times: number) => `{{ ($s := "xxxxxxxxxxxxxxxx"; ${Array.from({ length: times }, () => '$s := $s & $s;').join(' ')} $s) }}`;

/** A finished run: the test endpoint's answer, or the run read until it ends when it outlasted the wait. */
async function finishedRun(client: AutomationsClient, workflowId: string, body: Record<string, unknown> = {}): Promise<any> {
  const response = await client.wf(`/workflows/${workflowId}/test`, { method: 'POST', body });
  expect([200, 202]).toContain(response.status);
  let run = response.body.data;
  const deadline = Date.now() + 120_000;
  while (run.status === 'running' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    run = (await client.wf(`/runs/${run.id}`)).body.data;
  }
  return run;
}

describe('every value a run produces has a bound, checked where it is produced', () => {
  let app: TestApp;
  let client: AutomationsClient;

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
    expect((await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } })).status).toBe(201);
  });
  afterAll(() => app?.close());

  it("the issue's fourteen 16 MB set_state steps are refused at the first, naming step and field; nothing oversized is stored", async () => {
    const steps = Array.from({ length: 14 }, (_, index) => ({
      id: `grow${index + 1}`,
      type: 'action.set_state',
      params: { externalId: 'p-1', key: 'loyalty_tier', value: doubled(20) },
    }));
    const automation = await client.create(chain('Fourteen doublings', steps));
    const run = await finishedRun(client, automation.id);
    expect(run.status).toBe('failed');
    expect(run.error).toEqual({
      code: 'EXPRESSION_OUTPUT_TOO_LARGE',
      nodeId: 'grow1',
      message: 'The value of params.value would be 16.0 MB, more than the 10.0 MB an expression may produce',
    });
    expect(run.nodes.slice(1).map((node: any) => node.status)).toEqual(['failed', ...Array(13).fill('skipped')]);
    expect((await client.call('/entities/p-1/state/loyalty_tier')).status).toBe(404);
    const stored = await app.deps.db('automation_runs').where({ id: run.id }).first(app.deps.db.raw('pg_column_size(output) + pg_column_size(input) AS bytes'));
    expect(stored.bytes).toBeLessThan(16 * 1024);
    expect(await app.deps.db('automation_run_values').where({ run_id: run.id }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('a state value past 1 MiB is refused alike by action.set_state (step, code, field) and by PUT …/state/:key (400 naming value)', async () => {
    // Doubled seventeen times: 2 MiB, within what an expression may produce, past what a state may hold.
    const automation = await client.create(
      chain('Two MiB state', [{ id: 'big', type: 'action.set_state', params: { externalId: 'p-1', key: 'risk_score', value: doubled(17) } }]),
    );
    const run = await finishedRun(client, automation.id);
    expect(run.error).toEqual({ code: 'VALIDATION_FAILED', nodeId: 'big', message: 'value must be at most 1.0 MiB as JSON (is 2.0 MiB)' });
    expect((await client.call('/entities/p-1/state/risk_score')).status).toBe(404);

    const refused = await client.call('/entities/p-1/state/risk_score', { method: 'PUT', body: { value: 'y'.repeat(MiB) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'value', message: 'must be at most 1.0 MiB as JSON (is 1.0 MiB)' }],
    });
    const kept = await client.call('/entities/p-1/state/risk_score', { method: 'PUT', body: { value: 'y'.repeat(MiB - 2) } });
    expect(kept.status).toBe(200);
    expect(kept.body.data.value).toHaveLength(MiB - 2);
  });
});

/** A KYC answer of about `bytes` bytes: the usual fields and a long document list (a supplier's few-MB answer). */
function bigAnswer(ref: string, bytes: number) {
  const document = { doc_type: 'passport', kyc_state: 'approved', note: `${ref} ${'x'.repeat(200)}` };
  const count = Math.ceil(bytes / JSON.stringify(document).length);
  return { player_ref: ref, kyc_state: 'approved', documents: Array.from({ length: count }, (_, index) => ({ ...document, page: index })) };
}

describe('a run of many large outputs reads back in bounded memory (own worker, large-data budget raised)', () => {
  const queue = `wf-values-${randomUUID()}`;
  const STEPS = 10;
  const ANSWER_BYTES = 4.5 * MiB;
  let worker: WorkerProcess;
  let app: TestApp;
  let client: AutomationsClient;
  let other: AutomationsClient;
  let supplier: TestProvider;
  let run: any;

  beforeAll(async () => {
    worker = await spawnWorker({
      TEMPORAL_TASK_QUEUE: queue,
      LARGE_PAYLOAD_BYTES_PER_SECOND: String(512 * MiB),
      LARGE_PAYLOAD_BURST_BYTES: String(512 * MiB),
    });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, LARGE_PAYLOAD_BYTES_PER_SECOND: String(512 * MiB), LARGE_PAYLOAD_BURST_BYTES: String(512 * MiB) });
    client = await automationsClient(app);
    other = await automationsClient(app);
    supplier = await startProvider((request) => {
      const player = /^\/v1\/players\/([^/]+)\/kyc$/.exec(request.path)?.[1];
      return player ? { status: 200, body: bigAnswer(player, ANSWER_BYTES) } : { status: 404, body: {} };
    });
    const { connectionId } = await connectSupplier(app.url, client.key, {
      openapi: kycDocument(supplier.url, { kind: 'none' }),
      schemaMap: KYC_SCHEMA_MAP,
      credentials: {},
    });
    const steps = Array.from({ length: STEPS }, (_, index) => ({
      id: `kyc${index + 1}`,
      type: 'action.gateway',
      params: { connectionId, operation: 'kyc.status', params: { playerId: `big-${index + 1}` } },
    }));
    const automation = await client.create(chain('Ten large answers', steps));
    run = await finishedRun(client, automation.id);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await supplier?.close();
  });

  it('the record holds each large output as { _truncated, bytes, preview }, small values as they are', () => {
    expect(run.status).toBe('completed');
    expect(run.nodes[0]).toMatchObject({ id: 'start', status: 'completed' });
    for (const node of run.nodes.slice(1)) {
      expect(node.status).toBe('completed');
      expect(node.input).toEqual({ connectionId: expect.any(String), operation: 'kyc.status', params: { playerId: expect.stringMatching(/^big-/) } });
      expect(node.output).toEqual({ _truncated: true, bytes: expect.any(Number), preview: expect.any(String) });
      expect(node.output.bytes).toBeGreaterThan(ANSWER_BYTES);
      expect(node.output.preview).toHaveLength(PREVIEW_CHARS);
    }
    // The run's output is its last step's: the same marker.
    expect(run.output).toEqual(run.nodes.at(-1).output);
  });

  it('four concurrent GETs of the run stay within 32 MB of heap in the API process, each answer under 64 KiB', async () => {
    global.gc?.();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 2);
    const reads = await Promise.all(Array.from({ length: 4 }, () => client.wf(`/runs/${run.id}`)));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    const growth = peak - baseline;
    console.log(`heap growth during four concurrent reads of a ${STEPS} × ${ANSWER_BYTES / MiB} MB run: ${(growth / MiB).toFixed(1)} MB`);
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(read.text.length).toBeLessThan(INLINE_VALUE_BYTES);
      expect(read.body.data.nodes.at(-1).output._truncated).toBe(true);
    }
    expect(growth).toBeLessThan(32 * MiB);
    // The list reads bounded columns only.
    const list = await client.wf(`/workflows/${run.workflowId}/runs`);
    expect(list.text.length).toBeLessThan(8 * 1024);
  });

  it('GET /runs/:runId/steps/:nodeId/output streams the exact bytes, the size announced; a small value comes from the record', async () => {
    const marker = run.nodes[3].output;
    const response = await fetch(`${app.url}/workflows-api/runs/${run.id}/steps/kyc3/output`, { headers: { authorization: `Bearer ${client.key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBe(marker.bytes);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.byteLength).toBe(marker.bytes);
    const text = bytes.toString('utf8');
    expect(text.startsWith(marker.preview)).toBe(true);
    const output = JSON.parse(text);
    expect(output.data.documents).toHaveLength(bigAnswer('big-3', ANSWER_BYTES).documents.length);
    expect(output.data.documents.at(-1)).toMatchObject({ documentType: 'passport', status: 'approved', note: `big-3 ${'x'.repeat(200)}` });

    const input = await client.wf(`/runs/${run.id}/steps/kyc3/input`);
    expect(input.status).toBe(200);
    expect(input.body).toEqual(run.nodes[3].input);
    const none = await client.wf(`/runs/${run.id}/steps/nowhere/output`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('STEP_VALUE_NOT_FOUND');
  });

  it('another operator gets 404 for the run and for each of its step values', async () => {
    const record = await other.wf(`/runs/${run.id}`);
    expect(record.status).toBe(404);
    expect(record.body.error.code).toBe('RUN_NOT_FOUND');
    for (const part of ['output', 'input']) {
      const value = await other.wf(`/runs/${run.id}/steps/kyc1/${part}`);
      expect(value.status).toBe(404);
      expect(value.body.error.code).toBe('RUN_NOT_FOUND');
    }
  });

  it('a rerun from the last step reuses the earlier large outputs whole', async () => {
    const rerun = await client.wf(`/runs/${run.id}/rerun`, { method: 'POST', body: { fromNodeId: `kyc${STEPS}` } });
    expect(rerun.status).toBe(202);
    const runId = rerun.body.data.runId as string;
    let again: any;
    const deadline = Date.now() + 60_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      again = (await client.wf(`/runs/${runId}`)).body.data;
    } while ((!again || again.status === 'running') && Date.now() < deadline);
    expect(again.status).toBe('completed');
    expect(again.nodes[1]).toMatchObject({ reused: true, output: { _truncated: true, bytes: run.nodes[1].output.bytes } });
    const reused = await client.wf(`/runs/${again.id}/steps/kyc1/output`);
    expect(reused.status).toBe(200);
    expect(reused.body.data.documents).toHaveLength(bigAnswer('big-1', ANSWER_BYTES).documents.length);
  });

  it("erasing the run's entity deletes the values stored apart with the rest of its data", async () => {
    expect((await client.call('/entities', { method: 'POST', body: { externalId: 'p-erased', entityType: 'player', data: { country: 'MT' } } })).status).toBe(
      201,
    );
    const one = await client.create(chain('About p-erased', [{ ...(await client.wf(`/workflows/${run.workflowId}`)).body.data.nodes[1], id: 'kyc' }]));
    const about = await finishedRun(client, one.id, { playerId: 'p-erased' });
    expect(about.nodes[1].output._truncated).toBe(true);
    const stored = () => app.deps.db('automation_run_values').where({ run_id: about.id }).count({ n: '*' });
    expect(Number((await stored())[0]!.n)).toBeGreaterThan(0);
    expect((await client.call('/entities/p-erased', { method: 'DELETE' })).status).toBe(200);
    expect(await stored()).toEqual([{ n: '0' }]);
    expect((await client.wf(`/runs/${about.id}`)).body.data.nodes[1].output).toBeUndefined();
    expect((await client.wf(`/runs/${about.id}/steps/kyc/output`)).status).toBe(404);
  });

  it('a record stored whole before values were stored apart reads bounded, whether it inflates past 8 MiB or is stored larger', async () => {
    const { db, keyring } = app.deps;
    const nodes = run.nodes.map((node: any) => ({ id: node.id, status: node.status, durationMs: node.durationMs }));
    // The record: step outputs of 16 MB each, deflated by the seal to a fraction of it.
    const sixteen = 'x'.repeat(16 * MiB);
    const inflating = await sealRunResult(keyring, client.operator.operatorId, run.id, {
      output: sixteen,
      nodes: nodes.map((node: any) => ({ ...node, output: sixteen })),
      error: null,
    });
    await db('automation_runs')
      .where({ id: run.id })
      .update({ output: JSON.stringify(inflating.output) });
    const inflated = await client.wf(`/runs/${run.id}`);
    expect(inflated.status).toBe(200);
    expect(inflated.body.data.output).toEqual({ _truncated: true, bytes: RECORD_OPEN_MAX_BYTES, preview: '' });
    expect(inflated.body.data.nodes.map((node: any) => node.output)).toEqual(nodes.map(() => undefined));
    expect(inflated.text.length).toBeLessThan(8 * 1024);
    // Stored larger than 8 MiB (incompressible, plaintext as rows were before sealing): never selected.
    await db('automation_runs')
      .where({ id: run.id })
      .update({ output: JSON.stringify(randomBytes(9 * MiB).toString('base64')) });
    const stored = await client.wf(`/runs/${run.id}`);
    expect(stored.status).toBe(200);
    expect(stored.body.data.output).toEqual({ _truncated: true, bytes: expect.any(Number), preview: '' });
    expect(stored.body.data.output.bytes).toBeGreaterThan(RECORD_OPEN_MAX_BYTES);
    // Its values stored apart still stream.
    expect((await client.wf(`/runs/${run.id}/steps/kyc2/output`)).status).toBe(200);
  });

  it("storing the outcome of ten 4.5 MB steps takes well under the end step's 10 s timeout", async () => {
    const { db, keyring } = app.deps;
    const runId = `run_${randomUUID().replace(/-/g, '')}`;
    const operatorId = client.operator.operatorId;
    await insertRun(
      db,
      keyring,
      {
        id: runId,
        operatorId,
        automationId: run.workflowId,
        automationVersion: 1,
        source: 'manual',
        triggerNodeId: 'start',
        temporalWorkflowId: `automation-manual-${runId}`,
        input: {},
        usageMonth: '2026-12',
        reserved: { actions: 0, aiActions: 0 },
      },
      { defaults: { actions: 1_000_000, aiActions: 1_000_000 }, exceeded: { code: 'QUOTA_EXCEEDED', message: 'x' } },
    );
    const nodes = Array.from({ length: STEPS }, (_, index) => ({
      id: `kyc${index + 1}`,
      status: 'completed' as const,
      output: bigAnswer(`big-${index + 1}`, ANSWER_BYTES),
      durationMs: 1,
    }));
    const started = performance.now();
    const row = await finishRun(db, keyring, operatorId, runId, {
      status: 'completed',
      output: nodes.at(-1)!.output,
      nodes,
      error: null,
      executed: { actions: 0, aiActions: 0 },
    });
    const ms = performance.now() - started;
    console.log(`storing ${STEPS} × ${ANSWER_BYTES / MiB} MB step outputs: ${Math.round(ms)} ms`);
    expect(row?.status).toBe('completed');
    expect(ms).toBeLessThan(5_000);
  });
});
