import { createHmac, randomUUID } from 'node:crypto';
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import { REDACTED_MESSAGE } from '../../core/automations/runRecord';
import { startTestApp, type TestApp } from '../helpers/app';
import { waitForJob } from '../helpers/data';
import { http } from '../helpers/http';
import { createWorkflow, mcpOperator, mcpPost, rpc, toolAutomation } from '../helpers/mcp';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { chain, waitForRuns, automationsClient, type AutomationsClient } from '../helpers/automations';

/** A supplier on loopback that answers with what it was sent, so a node's output echoes the payload. */
const echo = () => startProvider((request) => ({ status: 200, body: { echoed: request.body ? JSON.parse(request.body) : null } }));
const echoNode = (provider: TestProvider, body: Record<string, unknown>) => ({
  id: 'echo',
  type: 'action.http_request',
  params: { method: 'POST', url: `${provider.url}/echo`, body },
});

/** Every stored column of a run, as text: what a reader of the table (or its files) sees. */
async function rawRun(app: TestApp, runId: string): Promise<string> {
  const row = await app.deps.db('automation_runs').where({ id: runId }).first();
  return JSON.stringify(row);
}

describe('run records sealed at rest (issue 17)', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  let provider: TestProvider;

  beforeAll(async () => {
    app = await startTestApp();
    provider = await echo();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
  });
  afterAll(async () => {
    await provider.close();
    await app.close();
  });

  it('stores the payload, node outputs and error messages as ciphertexts; one run read opens them, a list shows none', async () => {
    const email = `planted-${randomUUID()}@example.com`;
    const workflow = await acme.create({
      name: 'Echo then fail',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        echoNode(provider, { contact: '{{ trigger.email }}' }),
        { id: 'bad', type: 'condition', params: { expression: '$error("no " & trigger.email)' } },
        { ...echoNode(provider, { never: true }), id: 'after' },
      ],
      edges: [
        { from: 'start', to: 'echo' },
        { from: 'echo', to: 'bad' },
        { from: 'bad', to: 'after', when: true },
      ],
    });
    const run = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { id: 'pz', email } });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ input: { id: 'pz', email }, status: 'failed', error: { nodeId: 'bad', message: expect.stringContaining(email) } });
    expect(run.body.data.nodes.find((node: any) => node.id === 'echo').output).toMatchObject({ body: { echoed: { contact: email } } });

    const raw = await rawRun(app, run.body.data.id);
    expect(raw).not.toContain(email);
    expect(raw).toContain('enc:v1:');

    const one = await acme.wf(`/runs/${run.body.data.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(run.body.data);
    expect(JSON.stringify(one.body.data)).toContain(email);

    const list = await acme.wf(`/workflows/${workflow.id}/runs`);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(email);
    expect(list.body.data[0]).toMatchObject({
      id: run.body.data.id,
      status: run.body.data.status,
      nodes: run.body.data.nodes.map((node: any) => ({ id: node.id, status: node.status, durationMs: node.durationMs })),
    });
    expect(list.body.data[0]).not.toHaveProperty('input');
    expect(list.body.data[0]).not.toHaveProperty('output');

    expect(await rival.wf(`/runs/${run.body.data.id}`)).toMatchObject({ status: 404, body: { error: { code: 'RUN_NOT_FOUND' } } });
  });

  it('a ciphertext moved to another run does not open there (bound to operator and run id): 500 without the data', async () => {
    const workflow = await acme.create(chain('Moved', [echoNode(provider, { x: 1 })]));
    const email = `moved-${randomUUID()}@example.com`;
    const first = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { email } });
    const second = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { other: 1 } });
    const sealed = await app.deps.db('automation_runs').where({ id: first.body.data.id }).first('input');
    await app.deps
      .db('automation_runs')
      .where({ id: second.body.data.id })
      .update({ input: JSON.stringify(sealed.input) });
    const read = await acme.wf(`/runs/${second.body.data.id}`);
    expect(read.status).toBe(500);
    expect(read.text).not.toContain(email);
    expect(read.text).not.toContain('enc:v1');
  });

  it('reads a run stored before sealing (plaintext columns) as it was stored', async () => {
    const workflow = await acme.create(chain('Legacy', [echoNode(provider, { x: 1 })]));
    const run = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { a: 1 } });
    const legacy = {
      input: { a: 'plain' },
      output: { x: 'plain' },
      nodes: [{ id: 'start', status: 'completed', output: { a: 'plain' }, durationMs: 1 }],
      error: { code: 'OLD', message: 'old message' },
    };
    await app.deps
      .db('automation_runs')
      .where({ id: run.body.data.id })
      .update({
        input: JSON.stringify(legacy.input),
        output: JSON.stringify(legacy.output),
        nodes: JSON.stringify(legacy.nodes),
        error: JSON.stringify(legacy.error),
      });
    expect((await acme.wf(`/runs/${run.body.data.id}`)).body.data).toMatchObject(legacy);
    const list = await acme.wf(`/workflows/${workflow.id}/runs`);
    expect(list.body.data[0]).toMatchObject({ nodes: [{ id: 'start', status: 'completed', durationMs: 1 }], error: { code: 'OLD' } });
    expect(JSON.stringify(list.body)).not.toContain('plain');
    expect(JSON.stringify(list.body)).not.toContain('old message');
  });
});

describe('erasure reaches the copies (spec 3.4, issue 17)', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let provider: TestProvider;

  beforeAll(async () => {
    app = await startTestApp();
    provider = await echo();
    acme = await automationsClient(app);
  });
  afterAll(async () => {
    await provider.close();
    await app.close();
  });

  it('redacts the runs about the entity, drops its idempotency records, and no API reads its data back', async () => {
    const externalId = `p-${randomUUID()}`;
    const bystander = `p-${randomUUID()}`;
    const email = `erase-${randomUUID()}@example.com`;
    const amount = 4242.17;
    const onEvent = await acme.create(
      chain('Echo events', [echoNode(provider, { seen: '{{ trigger.data.amount }}' })], {
        id: 'start',
        type: 'trigger.event',
        params: { event: 'entity_event.transaction' },
      }),
    );
    const manual = await acme.create(chain('By hand', [echoNode(provider, { contact: '{{ trigger.email }}' })]));

    const created = await acme.call('/entities', {
      method: 'POST',
      headers: { 'Idempotency-Key': `k-${externalId}` },
      body: { externalId, entityType: 'player', data: { email, country: 'MT' } },
    });
    expect(created.status).toBe(201);
    expect(
      (await acme.call('/entities', { method: 'POST', body: { externalId: bystander, entityType: 'player', data: { email: 'keep@example.com' } } })).status,
    ).toBe(201);
    const event = await acme.call(`/entities/${externalId}/events`, {
      method: 'POST',
      headers: { 'Idempotency-Key': `e-${externalId}` },
      body: { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR', status: 'completed' } },
    });
    expect(event.status).toBe(201);
    const [eventRun] = await waitForRuns(acme, onEvent.id, 1);
    expect(JSON.stringify(eventRun)).toContain(String(amount));
    const byHand = await acme.wf(`/workflows/${manual.id}/test`, { method: 'POST', body: { externalId, email } });
    const other = await acme.wf(`/workflows/${manual.id}/test`, { method: 'POST', body: { externalId: bystander, email: 'keep@example.com' } });
    const batch = await acme.call('/batch/entities', { method: 'POST', body: [{ externalId, entityType: 'player', data: { email, country: 'MT' } }] });
    expect((await waitForJob(acme, batch.body.data.jobId)).status).toBe('completed');
    const keys = () => app.deps.db('idempotency_keys').where({ operator_id: acme.operator.operatorId }).pluck('key');
    expect((await keys()).sort()).toEqual([`e-${externalId}`, `k-${externalId}`].sort());

    expect((await acme.call(`/entities/${externalId}`, { method: 'DELETE' })).status).toBe(200);

    expect(await keys()).toEqual([]);
    for (const runId of [eventRun.id, byHand.body.data.id]) {
      const read = await acme.wf(`/runs/${runId}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ input: { _redacted: true }, output: { _redacted: true } });
      expect(read.body.data.nodes.every((node: any) => node.output === undefined)).toBe(true);
      expect(JSON.stringify(read.body)).not.toContain(email);
      expect(JSON.stringify(read.body)).not.toContain(String(amount));
    }
    const kept = await acme.wf(`/runs/${other.body.data.id}`);
    expect(kept.body.data.input).toEqual({ externalId: bystander, email: 'keep@example.com' });

    const reads = [
      await acme.call(`/entities/${externalId}`),
      await acme.call(`/entities/${externalId}/events`),
      await acme.call(`/entities/${externalId}/state`),
      await acme.call(`/batch/jobs/${batch.body.data.jobId}`),
      await acme.wf(`/workflows/${onEvent.id}/runs`),
      await acme.wf(`/workflows/${manual.id}/runs`),
      await http(`${app.url}/analytics-api/analytics/players/${externalId}`, { token: acme.key }),
      await http(`${app.url}/analytics-api/analytics/players?search=${encodeURIComponent(email)}`, { token: acme.key }),
    ];
    for (const read of reads) {
      expect(read.text).not.toContain(email);
      expect(read.text).not.toContain(String(amount));
    }
    const stored = JSON.stringify(
      await app.deps.db.raw(
        `SELECT (SELECT json_agg(r) FROM automation_runs r WHERE r.operator_id = ?) AS runs, (SELECT json_agg(o) FROM outbox_events o WHERE o.operator_id = ?) AS outbox,
              (SELECT json_agg(j) FROM batch_jobs j WHERE j.operator_id = ?) AS jobs`,
        [acme.operator.operatorId, acme.operator.operatorId, acme.operator.operatorId],
      ),
    );
    expect(stored).not.toContain(email.slice(0, -'@example.com'.length));
    expect(stored).not.toContain(String(amount));
  });

  it('a run still going when its entity is erased keeps the redaction when it finishes', async () => {
    const externalId = `p-${randomUUID()}`;
    const email = `late-${randomUUID()}@example.com`;
    expect((await acme.call('/entities', { method: 'POST', body: { externalId, entityType: 'player', data: { email } } })).status).toBe(201);
    const slow = await acme.create(
      chain('Slow', [{ id: 'wait', type: 'action.delay', params: { seconds: 2 } }, echoNode(provider, { contact: '{{ trigger.email }}' })]),
    );
    const started = acme.wf(`/workflows/${slow.id}/test`, { method: 'POST', body: { externalId, email } });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await acme.call(`/entities/${externalId}`, { method: 'DELETE' })).status).toBe(200);
    const finished = await started;
    const [run] = await waitForRuns(acme, slow.id, 1);
    expect(run.input).toEqual({ _redacted: true });
    expect(run.output).toEqual({ _redacted: true });
    expect(JSON.stringify(run)).not.toContain(email);
    expect(finished.status).toBeLessThan(300);
    if (run.error) expect(run.error.message).toBe(REDACTED_MESSAGE);
  });

  it('finds the runs that name the entity under any key, by its id, or beside another entity, from manual and webhook triggers', async () => {
    const externalId = `p-${randomUUID()}`;
    const bystander = `p-${randomUUID()}`;
    const email = `anykey-${randomUUID()}@example.com`;
    const created = await acme.call('/entities', { method: 'POST', body: { externalId, entityType: 'player', data: { email } } });
    expect(created.status).toBe(201);
    expect((await acme.call('/entities', { method: 'POST', body: { externalId: bystander, entityType: 'player', data: {} } })).status).toBe(201);
    const manual = await acme.create(chain('Any key', [echoNode(provider, { contact: '{{ trigger.email }}' })]));
    const payloads = [
      { player: externalId, email },
      { customer: { ref: { playerId: externalId } }, email },
      { players: [bystander, externalId], email },
      { entityId: created.body.data.id, email },
    ];
    const runs = await Promise.all(payloads.map(async (body) => (await acme.wf(`/workflows/${manual.id}/test`, { method: 'POST', body })).body.data));
    const secret = 'whsec-erasure-0123456789';
    const hooked = await acme.create({
      name: 'Hooked',
      nodes: [{ id: 'hook', type: 'trigger.webhook', params: { secret, name: 'psp' } }, echoNode(provider, { contact: '{{ trigger.email }}' })],
      edges: [{ from: 'hook', to: 'echo' }],
    });
    const body = JSON.stringify({ transfer: { to: externalId }, email });
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    const webhook = await http(`${app.url}/webhook-receiver/${hooked.nodes[0].params.webhookId}`, {
      method: 'POST',
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-service-signature': signature },
    });
    expect(webhook.status).toBe(202);
    const [hookRun] = await waitForRuns(acme, hooked.id, 1);
    expect(JSON.stringify(hookRun)).toContain(email);
    const stored = await app.deps
      .db('automation_runs')
      .whereIn('id', [...runs.map((run) => run.id), hookRun.id])
      .select('id', 'subject_external_ids');
    const subjectsOf = (runId: string) => stored.find((row) => row.id === runId)?.subject_external_ids;
    expect([...runs, hookRun].map((run) => subjectsOf(run.id))).toEqual([
      [externalId],
      [externalId],
      [bystander, externalId].sort(),
      [externalId],
      [externalId],
    ]);

    expect((await acme.call(`/entities/${externalId}`, { method: 'DELETE' })).status).toBe(200);
    for (const run of [...runs, hookRun]) {
      const read = await acme.wf(`/runs/${run.id}`);
      expect(read.body.data).toMatchObject({ input: { _redacted: true }, output: { _redacted: true } });
      expect(read.text).not.toContain(email);
      expect(await rawRun(app, run.id)).not.toContain('enc:v1');
    }
  });

  it('MCP tools/call: a run about the entity is redacted by its erasure, and a call after erasure naming it is recorded redacted', async () => {
    const operator = await mcpOperator(app.url);
    const data = (path: string, options: Parameters<typeof http>[1] = {}) => http(`${app.url}/operator-data-api${path}`, { ...options, token: operator.key });
    const runOf = (runId: string) => http(`${app.url}/workflows-api/runs/${runId}`, { token: operator.key });
    expect((await data('/settings', { method: 'PUT', body: { templateId: IGAMING_TEMPLATE_ID } })).status).toBe(200);
    const externalId = `p-${randomUUID()}`;
    const [before, after] = [`mcp-before-${randomUUID()}@example.com`, `mcp-after-${randomUUID()}@example.com`];
    expect((await data('/entities', { method: 'POST', body: { externalId, entityType: 'player', data: { email: before } } })).status).toBe(201);
    const tool = await createWorkflow(
      app.url,
      operator.accessToken,
      toolAutomation('Contact player', [echoNode(provider, { contact: '{{ trigger.email }}' })]),
    );
    const call = (email: string) => mcpPost(app.url, operator.key, rpc('tools/call', { name: tool.mcp_tool_name, arguments: { playerId: externalId, email } }));

    const first = await call(before);
    expect(first.body.result.isError).toBe(false);
    expect(first.text).toContain(before);
    const firstRun = first.body.result._meta.execution_id;
    expect((await runOf(firstRun)).text).toContain(before);

    expect((await data(`/entities/${externalId}`, { method: 'DELETE' })).status).toBe(200);
    const erased = await runOf(firstRun);
    expect(erased.body.data).toMatchObject({ source: 'mcp', input: { _redacted: true }, output: { _redacted: true } });
    expect(erased.text).not.toContain(before);

    const second = await call(after);
    expect(second.status).toBe(200);
    expect(second.body.result.isError).toBe(false);
    const secondRun = second.body.result._meta.execution_id;
    expect(provider.requests.some((request) => JSON.stringify(request.json) === JSON.stringify({ contact: after }))).toBe(true);
    expect(second.text).not.toContain(after);
    const read = await runOf(secondRun);
    expect(read.body.data).toMatchObject({ source: 'mcp', status: 'completed', input: { _redacted: true }, output: { _redacted: true } });
    expect(read.text).not.toContain(after);
    const list = await http(`${app.url}/workflows-api/workflows/${tool.id}/runs`, { token: operator.key });
    expect(list.body.data.map((run: any) => run.id).sort()).toEqual([firstRun, secondRun].sort());
    for (const text of [list.text, await rawRun(app, firstRun), await rawRun(app, secondRun)]) {
      expect(text).not.toContain(before);
      expect(text).not.toContain(after);
    }
  });
});
