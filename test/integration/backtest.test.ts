import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';
import { waitForJob } from '../helpers/data';
import { http } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const PLAYERS = 200;
const EVENTS = 10_000;
/** Event i: player p-(i mod 200), a deposit unless i mod 4 is 3 (a withdrawal), amount spread over 0…10006. */
const eventOf = (i: number) => ({
  externalId: `p-${i % PLAYERS}`,
  eventType: 'transaction',
  data: { type: i % 4 === 3 ? 'withdrawal' : 'deposit', amount: (i * 7919) % 10_007, currency: 'EUR' },
});

/** An event-triggered bonus: deposits over `threshold` get an email and a supplier call. */
const bonus = (threshold: number, supplierUrl: string) => ({
  nodes: [
    { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.type = "deposit"' } },
    { id: 'big', type: 'condition', params: { expression: `trigger.data.amount > ${threshold}` } },
    {
      id: 'mail',
      type: 'action.send_email',
      params: { to: 'crm@example.test', subject: 'A bonus for {{ trigger.entity.externalId }}', text: 'Amount {{ trigger.data.amount }}' },
    },
    {
      id: 'credit',
      type: 'action.http_request',
      params: { method: 'POST', url: `${supplierUrl}/bonus/{{ trigger.entity.externalId }}`, body: { amount: '{{ trigger.data.amount }}' } },
    },
  ],
  edges: [
    { from: 'deposit', to: 'big' },
    { from: 'big', to: 'mail', when: true },
    { from: 'mail', to: 'credit' },
  ],
});

/** The players the hand computation names: a deposit over the threshold, by external id. */
const playersOver = (threshold: number) =>
  new Set(
    Array.from({ length: EVENTS }, (_, i) => eventOf(i))
      .filter((event) => event.data.type === 'deposit' && event.data.amount > threshold)
      .map((event) => event.externalId),
  );

async function backtestEnded(client: AutomationsClient, backtestId: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.wf(`/backtests/${backtestId}`);
    if (response.status === 200 && response.body.data.status !== 'running') return response.body.data;
    if (Date.now() > deadline) throw new Error(`backtest ${backtestId} did not end: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('backtests (POST /workflows-api/workflows/:id/backtests)', () => {
  const queue = `backtest-${randomUUID()}`;
  let smtp: TestSmtpServer;
  let supplier: TestProvider;
  let worker: WorkerProcess;
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  let workflow: any;
  const from = new Date(Date.now() - 60_000).toISOString();
  let to: string;
  const stored = async () => {
    const db = app.deps.db;
    const count = async (table: string) =>
      Number((await db(table).where({ operator_id: acme.operator.operatorId }).count<{ count: string }[]>({ count: '*' }))[0]!.count);
    return {
      events: await count('entity_events'),
      states: await count('entity_states'),
      outbox: await count('outbox_events'),
      runs: await count('automation_runs'),
    };
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    supplier = await startProvider(() => ({ status: 200, body: { ok: true } }));
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, SMTP_URL: smtp.url });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue });
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
    const players = Array.from({ length: PLAYERS }, (_, i) => ({ entityType: 'player', externalId: `p-${i}`, data: {} }));
    expect((await waitForJob(acme, (await acme.call('/batch/entities', { body: players })).body.data.jobId)).output.succeeded).toBe(PLAYERS);
    for (let i = 0; i < EVENTS; i += 5000) {
      const body = Array.from({ length: 5000 }, (_, k) => eventOf(i + k));
      expect((await waitForJob(acme, (await acme.call('/batch/events', { body })).body.data.jobId)).output.succeeded).toBe(5000);
    }
    to = new Date(Date.now() + 60_000).toISOString();
    // Created after the history: live dispatch never fires it with these events, so every effect would be the backtest's.
    workflow = await acme.create({ name: 'Big deposit bonus', ...bonus(9900, supplier.url) });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await smtp?.close();
    await supplier?.close();
  });

  it('needs credentials (401) and a manager to start or cancel one (403 FORBIDDEN for a Member)', async () => {
    expect(await http(`${app.url}/workflows-api/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to } })).toMatchObject({
      status: 401,
      body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
    });
    const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
    for (const path of [`/workflows/${workflow.id}/backtests`, '/backtests/bkt_x/cancel']) {
      expect(await http(`${app.url}/workflows-api${path}`, { method: 'POST', token: member.accessToken, body: { from, to } })).toMatchObject({
        status: 403,
        body: { success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage workflows' } },
      });
    }
    expect((await http(`${app.url}/workflows-api/backtests/bkt_x`, { token: member.accessToken })).status).toBe(404);
  });

  it('refuses what it cannot backtest, naming the field', async () => {
    const start = (body: unknown, id = workflow.id) => acme.wf(`/workflows/${id}/backtests`, { method: 'POST', body });
    expect(await start({ from: to, to: from })).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: { code: 'VALIDATION_FAILED', message: 'Invalid input: to must be after from', details: [{ field: 'to', message: 'must be after from' }] },
      },
    });
    expect(await start({ from, to, version: 1, definition: bonus(1, supplier.url) })).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: { code: 'VALIDATION_FAILED', details: [{ field: 'definition', message: 'cannot be sent with version: backtest one or the other' }] },
      },
    });
    expect(await start({ from, to, definition: { nodes: [{ id: 'go', type: 'trigger.manual', params: {} }], edges: [] } })).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: {
          code: 'VALIDATION_FAILED',
          details: [{ field: 'definition.nodes', message: 'has no event trigger: a backtest replays stored events through event triggers' }],
        },
      },
    });
    const broken = await start({ from, to, definition: { nodes: [{ id: 'deposit', type: 'trigger.event', params: {} }], edges: [] } });
    expect(broken.status).toBe(400);
    expect(broken.body.error.details[0].field).toMatch(/^definition\.nodes\[0\]/);
    expect(await start({ from, to, sampleOutputs: { big: { result: true } } })).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: { code: 'VALIDATION_FAILED', details: [{ field: 'sampleOutputs.big', message: 'is not an action step of the backtested definition' }] },
      },
    });
    // Past PostgreSQL's integer: refused at the edge, not a 500 from the query (found by the fuzz run).
    const huge = await start({ from, to, version: 11_911_553_497 });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'version' }] });
    expect(await start({ from, to, version: 9 })).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'VERSION_NOT_FOUND', message: 'Version 9 not found' } },
    });
    expect(await start({ from, to }, 'wf_missing')).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'WORKFLOW_NOT_FOUND', message: 'Workflow not found' } },
    });
    expect(await acme.wf('/backtests/bkt_missing')).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'BACKTEST_NOT_FOUND', message: 'Backtest not found' } },
    });
    expect(await acme.wf('/backtests/bkt_missing/cancel', { method: 'POST' })).toMatchObject({ status: 404, body: { error: { code: 'BACKTEST_NOT_FOUND' } } });
  });

  it('10,000 stored events through a lowered threshold: the diff names exactly the hand-computed players, and nothing is sent or written', async () => {
    const before = await stored();
    const created = await acme.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to, definition: bonus(9500, supplier.url) } });
    expect(created.status).toBe(202);
    expect(created.body.data).toMatchObject({
      id: expect.stringMatching(/^bkt_/),
      workflowId: workflow.id,
      status: 'running',
      version: null,
      baselineVersion: 1,
      total: EVENTS,
      processed: 0,
      result: null,
    });
    const done = await backtestEnded(acme, created.body.data.id);
    expect(done).toMatchObject({ status: 'completed', processed: EVENTS, error: null, completed_at: expect.any(String) });

    const deposits = Array.from({ length: EVENTS }, (_, i) => eventOf(i)).filter((event) => event.data.type === 'deposit');
    const over = (threshold: number) => deposits.filter((event) => event.data.amount > threshold).length;
    const [v1, v2] = [playersOver(9900), playersOver(9500)];
    const newly = [...v2].filter((id) => !v1.has(id)).sort();
    expect(newly.length).toBeGreaterThan(0);
    const { result } = done;
    expect(result.players).toEqual({
      affected: { total: v2.size, ids: [...v2].sort() },
      newlyAffected: { total: newly.length, ids: newly },
      noLongerAffected: { total: 0, ids: [] },
    });
    expect(result.backtested).toMatchObject({
      version: null,
      events: EVENTS,
      runs: deposits.length,
      failedRuns: 0,
      undecidableRuns: 0,
      steps: {
        deposit: { completed: deposits.length, skipped: 0, failed: 0, undecidable: 0 },
        big: { completed: deposits.length, skipped: 0, failed: 0, undecidable: 0 },
        mail: { completed: over(9500), skipped: deposits.length - over(9500), failed: 0, undecidable: 0 },
        credit: { completed: over(9500), skipped: deposits.length - over(9500), failed: 0, undecidable: 0 },
      },
      actionsByType: { 'action.send_email': over(9500), 'action.http_request': over(9500) },
      consumed: { actions: 2 * over(9500), aiActions: 0 },
      conditions: [{ nodeId: 'big', decidedBy: 'evaluated', reads: [] }],
    });
    expect(result.baseline).toMatchObject({ version: 1, active: true, runs: deposits.length, consumed: { actions: 2 * over(9900), aiActions: 0 } });
    expect(result.actionChanges).toEqual([
      { nodeId: 'credit', type: 'action.http_request', backtested: over(9500), active: over(9900) },
      { nodeId: 'mail', type: 'action.send_email', backtested: over(9500), active: over(9900) },
    ]);
    const sample = result.backtested.samples.find((item: any) => item.nodeId === 'credit');
    expect(sample).toEqual({
      nodeId: 'credit',
      type: 'action.http_request',
      playerId: sample.playerId,
      method: 'POST',
      target: `${supplier.url}/bonus/${sample.playerId}`,
      template: '{"amount":"{{ trigger.data.amount }}"}',
    });

    // Nothing performed: no email, no supplier call, no run, no entity state or event written.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(0);
    expect(supplier.requests).toHaveLength(0);
    expect(await stored()).toEqual(before);
    expect(before.runs).toBe(0);
    const players = await app.deps.db('backtest_players').where({ backtest_id: done.id, side: 'backtested' }).count<{ count: string }[]>({ count: '*' });
    expect(Number(players[0]!.count)).toBe(v2.size);
  }, 150_000);

  it('a saved version backtests against the current one; a condition reading a stubbed action is undecidable without a sample output', async () => {
    const saved = await acme.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: { name: 'Big deposit bonus', ...bonus(9950, supplier.url) } });
    expect(saved.body.data.version).toBe(2);
    const older = await backtestEnded(
      acme,
      (await acme.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to, version: 1 } })).body.data.id,
    );
    const lost = [...playersOver(9900)].filter((id) => !playersOver(9950).has(id)).sort();
    expect(older.result.players.newlyAffected).toEqual({ total: lost.length, ids: lost });
    expect(older.result.players.noLongerAffected).toEqual({ total: 0, ids: [] });
    expect(older).toMatchObject({ version: 1, baselineVersion: 2 });

    const kyc = {
      nodes: [
        { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.amount > 9990' } },
        { id: 'kyc', type: 'action.http_request', params: { method: 'GET', url: `${supplier.url}/kyc` } },
        { id: 'verified', type: 'condition', params: { expression: 'nodes.kyc.data.verified = true' } },
        { id: 'mail', type: 'action.send_email', params: { to: 'crm@example.test', subject: 'Verified', text: 'ok' } },
      ],
      edges: [
        { from: 'deposit', to: 'kyc' },
        { from: 'kyc', to: 'verified' },
        { from: 'verified', to: 'mail', when: true },
      ],
    };
    const runs = Array.from({ length: EVENTS }, (_, i) => eventOf(i)).filter((event) => event.data.amount > 9990).length;
    const blind = await backtestEnded(
      acme,
      (await acme.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to, definition: kyc } })).body.data.id,
    );
    expect(blind.result.backtested).toMatchObject({
      runs,
      undecidableRuns: runs,
      conditions: [{ nodeId: 'verified', decidedBy: 'undecidable', reads: ['kyc'] }],
      steps: { verified: { undecidable: runs, completed: 0 }, mail: { undecidable: runs, completed: 0 } },
      actionsByType: { 'action.http_request': runs },
    });
    const sampled = await backtestEnded(
      acme,
      (
        await acme.wf(`/workflows/${workflow.id}/backtests`, {
          method: 'POST',
          body: { from, to, definition: kyc, sampleOutputs: { kyc: { status: 200, data: { verified: true } } } },
        })
      ).body.data.id,
    );
    expect(sampled.result.backtested).toMatchObject({
      undecidableRuns: 0,
      conditions: [{ nodeId: 'verified', decidedBy: 'sampleOutput', reads: ['kyc'] }],
      steps: { verified: { completed: runs, undecidable: 0 }, mail: { completed: runs, undecidable: 0 } },
    });
    expect(smtp.received).toHaveLength(0);
    expect(supplier.requests).toHaveLength(0);
  }, 150_000);

  it('one running backtest per operator; cancel stops it and keeps no result; operator B sees none of it', async () => {
    const created = await acme.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to } });
    const backtestId = created.body.data.id;
    expect(await acme.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to } })).toMatchObject({
      status: 409,
      body: {
        success: false,
        error: {
          code: 'BACKTEST_ALREADY_RUNNING',
          message: `A backtest is already running (${backtestId}): wait for it or cancel it`,
          details: { backtestId },
        },
      },
    });
    expect(await rival.wf(`/backtests/${backtestId}`)).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'BACKTEST_NOT_FOUND', message: 'Backtest not found' } },
    });
    expect(await rival.wf(`/backtests/${backtestId}/cancel`, { method: 'POST' })).toMatchObject({
      status: 404,
      body: { error: { code: 'BACKTEST_NOT_FOUND' } },
    });
    expect(await rival.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to } })).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'WORKFLOW_NOT_FOUND', message: 'Workflow not found' } },
    });

    const cancelled = await acme.wf(`/backtests/${backtestId}/cancel`, { method: 'POST' });
    expect(cancelled).toMatchObject({
      status: 202,
      body: { success: true, data: { id: backtestId, status: 'cancelled', result: null, completed_at: expect.any(String) } },
    });
    expect(await acme.wf(`/backtests/${backtestId}/cancel`, { method: 'POST' })).toMatchObject({
      status: 409,
      body: { success: false, error: { code: 'BACKTEST_NOT_RUNNING', message: 'The backtest has already ended (cancelled)' } },
    });
    const handle = app.deps.temporal.client.workflow.getHandle(backtestId);
    await handle.result().catch(() => undefined);
    const row = await app.deps.db('backtests').where({ operator_id: acme.operator.operatorId, id: backtestId }).first();
    expect(row).toMatchObject({ status: 'cancelled', result: null });
    expect(Number(row.processed)).toBeLessThan(EVENTS);
    // The operator may start another once it has ended.
    const next = await acme.wf(`/workflows/${workflow.id}/backtests`, { method: 'POST', body: { from, to } });
    expect(next.status).toBe(202);
    expect((await backtestEnded(acme, next.body.data.id)).status).toBe('completed');
  }, 150_000);
});
