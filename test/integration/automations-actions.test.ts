import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startAiServer, type TestAiServer } from '../helpers/aiServer';
import { startTestApp, type TestApp } from '../helpers/app';
import type { ProviderAuth, TestProvider } from '../helpers/providerServer';
import { connectSupplier, credentialsFor, KYC_SCHEMA_MAP, kycDocument, startKycSupplier } from '../helpers/suppliers';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const ms = expect.any(Number);
const trigger = (input: unknown) => ({ id: 'start', status: 'completed', output: input, durationMs: 0 });

/** `POST /workflows/:id/test` and the run it answers (fails the test on anything but 200). */
async function testRun(client: AutomationsClient, workflowId: string, body: Record<string, unknown> = {}): Promise<any> {
  const response = await client.wf(`/workflows/${workflowId}/test`, { method: 'POST', body });
  if (response.status !== 200) throw new Error(`test run: ${response.status} ${response.text}`);
  return response.body.data;
}

describe('actions on the shared worker', () => {
  let app: TestApp;
  let client: AutomationsClient;

  beforeAll(async () => {
    app = await startTestApp();
    client = await automationsClient(app);
  });
  afterAll(() => app.close());

  describe('action.upsert_entity and action.record_event', () => {
    const input = { playerId: 'p-100', country: 'MT', amount: 250, note: 'first deposit' };
    let workflow: any;
    beforeAll(async () => {
      workflow = await client.create(
        chain('Onboard and deposit', [
          {
            id: 'upsert',
            type: 'action.upsert_entity',
            params: {
              entityType: 'player',
              externalId: '{{ trigger.playerId }}',
              data: { country: '{{ trigger.country }}', status: 'active', email: '{{ trigger.playerId }}@example.test' },
            },
          },
          {
            id: 'record',
            type: 'action.record_event',
            params: {
              externalId: '{{ nodes.upsert.externalId }}',
              eventType: 'transaction',
              data: { type: 'deposit', amount: '{{ trigger.amount * 100 }}', currency: 'EUR', reference: 'Ref {{ trigger.note }} for {{ trigger.playerId }}' },
            },
          },
        ]),
      );
    });

    it('creates the entity and records its event with templated params; each node output is the write outcome', async () => {
      const run = await testRun(client, workflow.id, input);
      expect(run).toEqual({
        id: expect.stringMatching(/^run_/),
        workflowId: workflow.id,
        workflowVersion: 1,
        source: 'manual',
        rerunOf: null,
        rerunFromNodeId: null,
        replayId: null,
        status: 'completed',
        temporalWorkflowId: expect.stringMatching(/^automation-manual-run_/),
        input,
        output: { id: expect.any(String), externalId: 'p-100', eventType: 'transaction' },
        nodes: [
          trigger(input),
          {
            id: 'upsert',
            status: 'completed',
            input: { entityType: 'player', externalId: 'p-100', data: { country: 'MT', status: 'active', email: 'p-100@example.test' } },
            output: { id: expect.any(String), externalId: 'p-100', action: 'created' },
            durationMs: ms,
          },
          {
            id: 'record',
            status: 'completed',
            input: {
              externalId: 'p-100',
              eventType: 'transaction',
              data: { type: 'deposit', amount: 25000, currency: 'EUR', reference: 'Ref first deposit for p-100' },
            },
            output: { id: expect.any(String), externalId: 'p-100', eventType: 'transaction' },
            durationMs: ms,
          },
        ],
        startedAt: ISO,
        completedAt: ISO,
        durationMs: ms,
      });

      const entity = await client.call('/entities/p-100');
      expect(entity.status).toBe(200);
      expect(entity.body.data).toMatchObject({
        externalId: 'p-100',
        entityType: 'player',
        data: { country: 'MT', status: 'active', email: 'p-100@example.test' },
      });
      const events = await client.call('/entities/p-100/events');
      expect(events.body.data).toHaveLength(1);
      expect(events.body.data[0]).toEqual({
        id: run.output.id,
        event_type: 'transaction',
        data: { type: 'deposit', amount: 25000, currency: 'EUR', reference: 'Ref first deposit for p-100' },
        created_at: ISO,
      });

      const again = await testRun(client, workflow.id, { ...input, country: 'DE' });
      expect(again.nodes[1].output).toEqual({ id: run.nodes[1].output.id, externalId: 'p-100', action: 'updated' });
      expect((await client.call('/entities/p-100')).body.data.data.country).toBe('DE');
    });

    it('fills plain-path templates in the run itself and sends only the computed one to the expression sandbox', async () => {
      const run = await testRun(client, workflow.id, { ...input, playerId: 'p-101' });
      expect(run.status).toBe('completed');
      const history = await app.deps.temporal.client.workflow.getHandle(run.temporalWorkflowId).fetchHistory();
      const localActivities = (history.events ?? [])
        .map((event) => event.markerRecordedEventAttributes)
        .filter((marker) => marker?.markerName === 'core_local_activity')
        .map((marker) => JSON.parse(Buffer.from(marker!.details!.data!.payloads![0]!.data!).toString()).activity_type);
      // The API began the run and stored its end; `upsert` names only paths; `record` computes `trigger.amount * 100`.
      expect(localActivities).toEqual(['automationWriteData', 'automationEvaluate', 'automationWriteData']);
    });

    it('a template violation fails the node with VALIDATION_FAILED and its field problems; nothing is written', async () => {
      const bad = await client.create(
        chain('Bad deposit', [
          {
            id: 'record',
            type: 'action.record_event',
            params: { externalId: 'p-100', eventType: 'transaction', data: { type: '{{ trigger.kind }}', amount: '{{ trigger.amount }}' } },
          },
        ]),
      );
      const before = (await client.call('/entities/p-100/events')).body.data.length;
      const run = await testRun(client, bad.id, { kind: 'lottery', amount: 'lots' });
      const message =
        'data.currency is required; data.type must be one of deposit, withdrawal, bet, win, bonus, refund, adjustment; data.amount must be a number';
      expect(run).toMatchObject({ status: 'failed', output: null, error: { code: 'VALIDATION_FAILED', message, nodeId: 'record' } });
      expect(run.nodes).toEqual([
        trigger({ kind: 'lottery', amount: 'lots' }),
        {
          id: 'record',
          status: 'failed',
          input: { externalId: 'p-100', eventType: 'transaction', data: { type: 'lottery', amount: 'lots' } },
          error: { code: 'VALIDATION_FAILED', message },
          durationMs: ms,
          output: [
            { field: 'data.currency', message: 'is required' },
            { field: 'data.type', message: 'must be one of deposit, withdrawal, bet, win, bonus, refund, adjustment' },
            { field: 'data.amount', message: 'must be a number' },
          ],
        },
      ]);
      expect((await client.call('/entities/p-100/events')).body.data.length).toBe(before);
    });

    it('an event for an unknown entity fails with ENTITY_NOT_FOUND without retrying; later nodes are skipped', async () => {
      const ghost = await client.create(
        chain('Ghost event', [
          { id: 'record', type: 'action.record_event', params: { externalId: '{{ trigger.playerId }}', eventType: 'session', data: { device: 'ios' } } },
          { id: 'after', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: 1 } },
        ]),
      );
      const run = await testRun(client, ghost.id, { playerId: 'ghost-1' });
      expect(run).toMatchObject({
        status: 'failed',
        output: null,
        error: { code: 'ENTITY_NOT_FOUND', message: 'No entity with externalId ghost-1', nodeId: 'record' },
      });
      expect(run.nodes).toEqual([
        trigger({ playerId: 'ghost-1' }),
        {
          id: 'record',
          status: 'failed',
          input: { externalId: 'ghost-1', eventType: 'session', data: { device: 'ios' } },
          error: { code: 'ENTITY_NOT_FOUND', message: 'No entity with externalId ghost-1' },
          durationMs: ms,
        },
        { id: 'after', status: 'skipped', durationMs: 0 },
      ]);
      expect(run.durationMs).toBeLessThan(2_000);
      expect((await client.call('/entities/ghost-1')).status).toBe(404);
    });
  });

  it('action.send_email writes the templated message (the shared worker has no SMTP_URL: DATA_DIR/mail)', async () => {
    const to = `ops-${randomUUID()}@example.test`;
    const workflow = await client.create(
      chain('Mail the team', [
        {
          id: 'mail',
          type: 'action.send_email',
          params: {
            to: '{{ trigger.to }}',
            subject: 'Deposit by {{ trigger.playerId }}',
            text: 'Player {{ trigger.playerId }} deposited {{ trigger.amount }} EUR (run {{ run.source }}).',
          },
        },
      ]),
    );
    const run = await testRun(client, workflow.id, { to, playerId: 'p-7', amount: 120 });
    expect(run.status).toBe('completed');
    expect(run.nodes[1]).toEqual({
      id: 'mail',
      status: 'completed',
      input: { to, subject: 'Deposit by p-7', text: 'Player p-7 deposited 120 EUR (run manual).' },
      output: { delivery: 'file', file: expect.stringMatching(/\.txt$/) },
      durationMs: ms,
    });
    expect(run.output).toEqual(run.nodes[1].output);
    const mail = readFileSync(path.join(path.resolve(process.env.DATA_DIR!, 'mail'), run.output.file), 'utf8');
    expect(mail).toContain(`To: ${to}\n`);
    expect(mail).toContain('Subject: Deposit by p-7\n');
    expect(mail.endsWith('\n\nPlayer p-7 deposited 120 EUR (run manual).')).toBe(true);
  });

  describe('action.gateway through a loopback supplier', () => {
    const auth: ProviderAuth = { kind: 'apiKeyHeader', name: 'X-Api-Key', value: 'wf-kyc-key' };
    let kyc: TestProvider;
    let connectionId: string;
    beforeAll(async () => {
      kyc = await startKycSupplier(auth);
      ({ connectionId } = await connectSupplier(app.url, client.key, {
        openapi: kycDocument(kyc.url, auth),
        schemaMap: KYC_SCHEMA_MAP,
        credentials: credentialsFor(auth),
      }));
    });
    afterAll(() => kyc.close());

    it('calls the operation with templated params translated by the schema map, and returns canonical data', async () => {
      const workflow = await client.create(
        chain('KYC check', [
          { id: 'kyc', type: 'action.gateway', params: { connectionId, operation: 'kyc.status', params: { playerId: '{{ trigger.playerId }}' } } },
          { id: 'store', type: 'action.set_state', params: { externalId: 'p-100', key: 'kyc_status', value: '{{ nodes.kyc.data.status }}' } },
        ]),
      );
      const run = await testRun(client, workflow.id, { playerId: 'p-42' });
      expect(run.status).toBe('completed');
      expect(run.nodes[1]).toEqual({
        id: 'kyc',
        status: 'completed',
        input: { connectionId, operation: 'kyc.status', params: { playerId: 'p-42' } },
        durationMs: ms,
        output: {
          status: 200,
          data: { playerId: 'p-42', status: 'approved', completedAt: '2026-01-02T03:04:05Z', documents: [{ documentType: 'passport', status: 'approved' }] },
        },
      });
      const sent = kyc.requests.at(-1)!;
      expect([sent.method, sent.path, sent.headers['x-api-key']]).toEqual(['GET', '/v1/players/p-42/kyc', 'wf-kyc-key']);
      expect(run.nodes[2]).toEqual({
        id: 'store',
        status: 'completed',
        input: { externalId: 'p-100', key: 'kyc_status', value: 'approved' },
        output: { externalId: 'p-100', key: 'kyc_status', value: 'approved' },
        durationMs: ms,
      });
    });

    it("a supplier refusal fails the node with PROVIDER_ERROR and the supplier's answer (untranslated, as /gateway) as output", async () => {
      const workflow = await client.create(
        chain('KYC of nobody', [{ id: 'kyc', type: 'action.gateway', params: { connectionId, operation: 'kyc.status', params: { playerId: 'unknown' } } }]),
      );
      const run = await testRun(client, workflow.id);
      expect(run).toMatchObject({ status: 'failed', output: null, error: { code: 'PROVIDER_ERROR', message: 'Provider returned HTTP 404', nodeId: 'kyc' } });
      expect(run.nodes[1]).toEqual({
        id: 'kyc',
        status: 'failed',
        input: { connectionId, operation: 'kyc.status', params: { playerId: 'unknown' } },
        output: { status: 404, data: { error: 'player not found', player_ref: 'unknown' } },
        error: { code: 'PROVIDER_ERROR', message: 'Provider returned HTTP 404' },
        durationMs: ms,
      });
    });

    it("another operator's connection is CONNECTION_NOT_FOUND", async () => {
      const other = await automationsClient(app);
      const workflow = await other.create(
        chain('Borrowed connection', [{ id: 'kyc', type: 'action.gateway', params: { connectionId, operation: 'kyc.status', params: { playerId: 'p-1' } } }]),
      );
      const before = kyc.requests.length;
      const run = await testRun(other, workflow.id);
      expect(run).toMatchObject({ status: 'failed', error: { code: 'CONNECTION_NOT_FOUND', message: `Connection ${connectionId} not found`, nodeId: 'kyc' } });
      expect(kyc.requests.length).toBe(before);
    });
  });

  it('action.ai without AI_BASE_URL fails the node with AI_NOT_CONFIGURED', async () => {
    const workflow = await client.create(chain('Unconfigured AI', [{ id: 'ask', type: 'action.ai', params: { prompt: 'Hello' } }]));
    const run = await testRun(client, workflow.id);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'AI_NOT_CONFIGURED', message: 'AI_BASE_URL is not configured', nodeId: 'ask' } });
  });
});

describe('action.ai against a loopback OpenAI-compatible endpoint (own worker with AI_BASE_URL)', () => {
  const queue = `wf-ai-${randomUUID()}`;
  let ai: TestAiServer;
  let worker: WorkerProcess;
  let app: TestApp;
  let client: AutomationsClient;

  beforeAll(async () => {
    ai = await startAiServer({ apiKey: 'sk-test-123', answer: (prompt, model) => `[${model}] risk of "${prompt}": low` });
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, AI_BASE_URL: ai.baseUrl, AI_API_KEY: 'sk-test-123', AI_MODEL: 'house-model-1' });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue });
    client = await automationsClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await ai?.close();
  });

  it('sends the templated prompt with the bearer key and the default model; the answer feeds later nodes', async () => {
    const workflow = await client.create(
      chain('Assess player', [
        { id: 'ask', type: 'action.ai', params: { prompt: 'Assess {{ trigger.playerId }} who deposited {{ trigger.amount }}' } },
        { id: 'again', type: 'action.ai', params: { prompt: 'Summarise: {{ nodes.ask.text }}', model: 'other-model' } },
      ]),
    );
    const run = await testRun(client, workflow.id, { playerId: 'p-9', amount: 700 });
    const first = '[house-model-1] risk of "Assess p-9 who deposited 700": low';
    const second = `[other-model] risk of "Summarise: ${first}": low`;
    expect(run).toMatchObject({ status: 'completed', output: { text: second, model: 'other-model' } });
    expect(run.nodes.slice(1)).toEqual([
      {
        id: 'ask',
        status: 'completed',
        input: { prompt: 'Assess p-9 who deposited 700' },
        output: { text: first, model: 'house-model-1', usage: { prompt_tokens: 28, completion_tokens: first.length, total_tokens: 28 + first.length } },
        durationMs: ms,
      },
      {
        id: 'again',
        status: 'completed',
        input: { prompt: `Summarise: ${first}`, model: 'other-model' },
        output: { text: second, model: 'other-model', usage: expect.any(Object) },
        durationMs: ms,
      },
    ]);
    const [asked, summarised] = ai.requests.slice(-2);
    expect(asked!.headers.authorization).toBe('Bearer sk-test-123');
    expect(asked!.json).toEqual({ model: 'house-model-1', messages: [{ role: 'user', content: 'Assess p-9 who deposited 700' }] });
    expect(summarised!.json.model).toBe('other-model');

    const usage = await client.wf('/usage');
    expect(usage.body.data).toMatchObject({ actions: { used: 2 }, aiActions: { used: 2 } });
  });

  it('a 503 is retried; a refused key (401) fails the node with AI_ERROR at once', async () => {
    const workflow = await client.create(chain('Ask once', [{ id: 'ask', type: 'action.ai', params: { prompt: 'ping' } }]));
    ai.queue.push({ status: 503, body: { error: { message: 'overloaded' } } });
    const before = ai.requests.length;
    const retried = await testRun(client, workflow.id);
    expect(retried).toMatchObject({ status: 'completed', output: { text: '[house-model-1] risk of "ping": low' } });
    expect(ai.requests.length - before).toBe(2);

    ai.apiKey = 'sk-rotated';
    try {
      const refused = await testRun(client, workflow.id);
      expect(refused).toMatchObject({ status: 'failed', output: null, error: { code: 'AI_ERROR', message: 'AI endpoint answered 401', nodeId: 'ask' } });
      expect(refused.nodes[1]).toEqual({
        id: 'ask',
        status: 'failed',
        input: { prompt: 'ping' },
        error: { code: 'AI_ERROR', message: 'AI endpoint answered 401' },
        durationMs: ms,
      });
      expect(ai.requests.length - before).toBe(3);
    } finally {
      ai.apiKey = 'sk-test-123';
    }
  });
});
