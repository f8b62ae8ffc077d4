import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { decodedHistoryText, rawHistory } from '../helpers/temporalHistory';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

/**
 * Issue 44, "the player in every run": a run about a player reads the player's profile and states as `player.*` in its
 * conditions and templates. The snapshot is sealed twice over in Temporal — by the payload codec like everything, and by
 * itself, so even the history opened with the codec shows only what a step rendered — and it is never logged. Manual
 * runs go to a worker of this file (its log lines read); deposit-triggered runs to the shared worker's dispatcher.
 */
describe('player.* in runs', () => {
  const stamp = randomUUID().slice(0, 8);
  const queue = `player-snapshot-${stamp}`;
  const ada = {
    email: `ada-${stamp}@example.com`,
    first_name: `Ada${stamp}`,
    last_name: `Lovelace${stamp}`,
    phone: `+3569${stamp.replace(/\D/g, '7')}`,
    country: 'MT',
  };
  const apiLines: string[] = [];
  let smtp: TestSmtpServer;
  let worker: WorkerProcess;
  let app: TestApp;
  let acme: AutomationsClient;
  let globex: AutomationsClient;

  const player = async (client: AutomationsClient, externalId: string, data: Record<string, unknown>, states: Record<string, unknown> = {}) => {
    expect((await client.call('/entities', { method: 'POST', body: { externalId, entityType: 'player', data } })).status).toBe(201);
    for (const [key, value] of Object.entries(states))
      expect((await client.call(`/entities/${externalId}/state/${key}`, { method: 'PUT', body: { value } })).status).toBe(200);
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, SMTP_URL: smtp.url, LOG_LEVEL: 'trace' });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue }, { logLines: apiLines });
    acme = await automationsClient(app);
    globex = await automationsClient(app);
    await player(acme, 'p-ada', ada, { kyc_status: 'approved', loyalty_tier: 'gold' });
  });
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await smtp?.close();
  });

  /** A condition on the player's country and KYC state, then a welcome email to the player: the snapshot in both. */
  const welcome = (trigger: Record<string, unknown>) => ({
    name: `Welcome ${randomUUID().slice(0, 6)}`,
    nodes: [
      trigger,
      {
        id: 'eligible',
        type: 'condition',
        params: { expression: 'player.country = "MT" and player.kyc_status = "approved" and player.states.loyalty_tier = "gold"' },
      },
      {
        id: 'mail',
        type: 'action.send_email',
        params: {
          to: '{{ player.email }}',
          subject: 'Welcome {{ player.first_name }}',
          text: 'Tier {{ player.loyalty_tier }}, player {{ player.externalId }}',
        },
      },
    ],
    edges: [
      { from: String(trigger.id), to: 'eligible' },
      { from: 'eligible', to: 'mail', when: true },
    ],
  });

  let manualWorkflowId = '';
  let manualRunId = '';
  let greeter: { id: string; nodes: Array<{ id: string; type: string; params: Record<string, unknown> }>; edges: unknown[] } | undefined;
  const since = new Date(Date.now() - 60_000).toISOString();

  it('a manual run about a player reads player.* in a condition and the email step’s templates', async () => {
    const workflow = await acme.create(welcome({ id: 'start', type: 'trigger.manual', params: {} }));
    manualWorkflowId = workflow.temporalWorkflowId ?? '';
    const test = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-ada' } });
    expect(test.status).toBe(200);
    const run = test.body.data;
    expect(run.status).toBe('completed');
    expect(run.nodes.find((node: any) => node.id === 'eligible')).toMatchObject({ status: 'completed', output: { result: true } });
    expect(run.nodes.find((node: any) => node.id === 'mail')).toMatchObject({
      status: 'completed',
      input: { to: ada.email, subject: `Welcome ${ada.first_name}`, text: 'Tier gold, player p-ada' },
    });
    const mail = await smtp.waitFor(ada.email);
    expect(mail.headers).toContain(`Welcome ${ada.first_name}`);
    expect(mail.text).toContain('Tier gold, player p-ada');
    manualWorkflowId = run.temporalWorkflowId;
    manualRunId = run.id;
  });

  it('its history holds nothing of the player in the clear, and opened with the codec only what a step rendered', async () => {
    const { bytes } = await rawHistory(app, manualWorkflowId);
    for (const value of [ada.email, ada.first_name, ada.last_name, ada.phone]) {
      expect({ value, found: [value, Buffer.from(value).toString('base64')].filter((form) => bytes.includes(form)) }).toEqual({ value, found: [] });
    }
    const opened = await decodedHistoryText(app, manualWorkflowId);
    // The email and the first name were rendered into the email step's params; the rest of the profile stays sealed.
    expect(opened).toContain(ada.email);
    expect(opened).toContain(ada.first_name);
    expect(opened).toContain('$sealedPlayer');
    expect(opened).not.toContain(ada.last_name);
    expect(opened).not.toContain(ada.phone);
  });

  it('a run that reads the player only in a condition keeps every personal field out of its opened history', async () => {
    const workflow = await acme.create({
      name: 'Country only',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'malta', type: 'condition', params: { expression: 'player.country = "MT" and $contains(player.email, "@example.com")' } },
        { id: 'tag', type: 'action.set_state', params: { externalId: 'p-ada', key: 'risk_score', value: 1 } },
      ],
      edges: [
        { from: 'start', to: 'malta' },
        { from: 'malta', to: 'tag', when: true },
      ],
    });
    const test = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-ada' } });
    expect(test.body.data.nodes[1]).toMatchObject({ id: 'malta', output: { result: true } });
    const opened = await decodedHistoryText(app, test.body.data.temporalWorkflowId);
    for (const value of [ada.email, ada.first_name, ada.last_name, ada.phone])
      expect({ value, found: opened.includes(value) }).toEqual({ value, found: false });
  });

  it('an expression that fails on a personal field fails the run with EXPRESSION_ERROR', async () => {
    const workflow = await acme.create({
      name: 'Broken',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        {
          id: 'mail',
          type: 'action.send_email',
          params: { to: 'ops@example.com', subject: '{{ $number(player.email) }}', text: '{{ $error(player.last_name) }}' },
        },
      ],
      edges: [{ from: 'start', to: 'mail' }],
    });
    const test = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-ada' } });
    expect(test.body.data).toMatchObject({ status: 'failed', error: { code: 'EXPRESSION_ERROR', nodeId: 'mail' } });
  });

  it('no log line of the API or the worker holds the player’s personal fields', async () => {
    await worker.line('email sent');
    const lines = [...apiLines, ...worker.lines];
    expect(apiLines.length).toBeGreaterThan(5);
    for (const value of [ada.email, ada.first_name, ada.last_name, ada.phone]) {
      expect({ value, lines: lines.filter((line) => line.includes(value)) }).toEqual({ value, lines: [] });
    }
  });

  it('another operator’s run about the same external id reads its own player, or none', async () => {
    const workflow = await globex.create({
      name: 'Peek',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        {
          id: 'peek',
          type: 'action.set_state',
          params: { externalId: 'p-globex', key: 'loyalty_tier', value: '{{ $string(player.first_name) & "|" & $string(player.email) }}' },
        },
      ],
      edges: [{ from: 'start', to: 'peek' }],
    });
    await player(globex, 'p-globex', { first_name: 'Bob' });
    const none = await globex.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-ada' } });
    expect(none.body.data.status).toBe('completed');
    expect(none.body.data.nodes[1].input.value).toBe('|');
    await player(globex, 'p-ada', { first_name: 'Bob', email: 'bob@example.org' });
    const own = await globex.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-ada' } });
    expect(own.body.data.nodes[1].input.value).toBe('Bob|bob@example.org');
  });

  it('a deposit-triggered run reads the depositor as player.*; the other operator’s deposit reads its own', async () => {
    const greet = (client: AutomationsClient) =>
      client.create({
        name: 'Greet depositors',
        nodes: [
          { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.type = "deposit"' } },
          { id: 'note', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'balance', value: '{{ player.first_name }}' } },
          { id: 'vip', type: 'condition', params: { expression: 'player.kyc_status = "approved"' } },
          { id: 'tag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 2 } },
        ],
        edges: [
          { from: 'start', to: 'note' },
          { from: 'note', to: 'vip' },
          { from: 'vip', to: 'tag', when: true },
        ],
      });
    const mine = await greet(acme);
    greeter = mine;
    const theirs = await greet(globex);
    for (const client of [acme, globex]) {
      const deposit = await client.call('/entities/p-ada/events', {
        method: 'POST',
        body: { eventType: 'transaction', data: { type: 'deposit', amount: 5000, currency: 'EUR' } },
      });
      expect(deposit.status).toBe(201);
    }
    const [acmeRun] = await waitForRuns(acme, mine.id, 1, 30_000);
    const [globexRun] = await waitForRuns(globex, theirs.id, 1, 30_000);
    expect(acmeRun.nodes.map((node: any) => [node.id, node.status, node.output?.result ?? node.input?.value])).toEqual([
      ['start', 'completed', undefined],
      ['note', 'completed', ada.first_name],
      ['vip', 'completed', true],
      ['tag', 'completed', 2],
    ]);
    expect(globexRun.nodes.map((node: any) => [node.id, node.status, node.output?.result ?? node.input?.value])).toEqual([
      ['start', 'completed', undefined],
      ['note', 'completed', 'Bob'],
      ['vip', 'completed', false],
      ['tag', 'skipped', undefined],
    ]);
    const { bytes } = await rawHistory(app, acmeRun.temporalWorkflowId);
    expect(bytes.includes(ada.first_name)).toBe(false);
  });

  it('a backtest evaluates conditions with the player as they are now: the draft on player.loyalty_tier, the active version on player.kyc_status', async () => {
    const definition = {
      nodes: greeter!.nodes.map((node) => (node.id === 'vip' ? { ...node, params: { expression: 'player.loyalty_tier = "silver"' } } : node)),
      edges: greeter!.edges,
    };
    const to = new Date(Date.now() + 60_000).toISOString();
    const created = await acme.wf(`/workflows/${greeter!.id}/backtests`, { method: 'POST', body: { from: since, to, definition } });
    expect(created.status).toBe(202);
    let done: any;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
      done = (await acme.wf(`/backtests/${created.body.data.id}`)).body.data;
      if (done.status !== 'running') break;
    }
    expect(done.status).toBe('completed');
    expect(done.result.backtested.steps.tag).toMatchObject({ completed: 0, skipped: 1 });
    expect(done.result.baseline.steps.tag).toMatchObject({ completed: 1, skipped: 0 });
    expect(done.result.actionChanges).toEqual(expect.arrayContaining([expect.objectContaining({ nodeId: 'tag', backtested: 0, active: 1 })]));
  });

  it('the expression preview reads a sample player beside the sample, and a run’s player as it is now', async () => {
    const preview = (body: Record<string, unknown>) => acme.wf('/expressions/preview', { method: 'POST', body });
    expect((await preview({ expression: 'Hi {{ player.first_name }}', kind: 'template', sample: {}, player: { first_name: 'Sam' } })).body.data).toEqual({
      ok: true,
      value: 'Hi Sam',
    });
    expect((await preview({ expression: '{{ player.first_name }}/{{ player.states.kyc_status }}', kind: 'template', runId: manualRunId })).body.data).toEqual({
      ok: true,
      value: `${ada.first_name}/approved`,
    });
    const both = await preview({ expression: 'player.country', kind: 'template', runId: manualRunId, player: {} });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toEqual([{ field: 'player', message: "cannot be sent with runId: a run's player is read from your data" }]);
  });
});
