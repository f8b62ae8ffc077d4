import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';
import { eventually } from '../helpers/eventually';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/**
 * A running run's record carries its steps while it lives (docs/workflows.md "A run while it lives"): read from its
 * live workflow (query `runTimeline`) and Temporal's pending activities, on a worker of its own (SMTP and an HTTP
 * server on loopback).
 */
describe('the run record while the run lives', () => {
  const queue = `live-timeline-${randomUUID()}`;
  let smtp: TestSmtpServer;
  let flaky: Server;
  let flakyUrl: string;
  let flakyCalls = 0;
  let worker: WorkerProcess;
  let app: TestApp;
  let acme: AutomationsClient;
  let globex: AutomationsClient;

  /** Welcome email, then wait up to `timeoutSeconds` for a deposit, then tag the player. */
  const journey = (name: string, timeoutSeconds: number) => ({
    name,
    nodes: [
      { id: 'start', type: 'trigger.manual', params: {} },
      {
        id: 'welcome',
        type: 'action.send_email',
        params: { to: 'player-live@example.test', subject: 'Welcome', text: 'Hello {{ trigger.entity.externalId }}' },
      },
      { id: 'deposit', type: 'action.wait_for_event', params: { event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', timeoutSeconds } },
      { id: 'tag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'loyalty_tier', value: 'depositor' } },
    ],
    edges: [
      { from: 'start', to: 'welcome' },
      { from: 'welcome', to: 'deposit' },
      { from: 'deposit', to: 'tag', when: true },
    ],
  });

  const run = async (client: AutomationsClient, runId: string) => (await client.wf(`/runs/${runId}`)).body.data;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // Answers 503 three times, then 200: the step retries (attempts 1–3 fail) and then completes.
    flaky = createServer((_request, response) => {
      flakyCalls += 1;
      response.writeHead(flakyCalls <= 3 ? 503 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: flakyCalls > 3 }));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/hook`;
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, SMTP_URL: smtp.url, GATEWAY_ALLOW_PRIVATE_NETWORKS: 'true' });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, WORKFLOW_TEST_WAIT_MS: '300' });
    acme = await automationsClient(app);
    globex = await automationsClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await smtp?.close();
    await new Promise((resolve) => flaky?.close(resolve));
  });

  it('shows the email step done and the wait with its event type and deadline, in the run and both lists; then the stored record', async () => {
    expect((await acme.call('/entities', { method: 'POST', body: { externalId: 'p-live', entityType: 'player', data: {} } })).status).toBe(201);
    const workflow = await acme.create(journey('Live journey', 600));
    const started = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { entity: { externalId: 'p-live' } } });
    expect(started.status).toBe(202);
    const runId = started.body.data.id as string;

    let live: any;
    await eventually(async () => {
      live = await run(acme, runId);
      return live.nodes.some((node: any) => node.id === 'deposit' && node.waiting);
    }, 20_000);
    const startedAt = Date.parse(live.startedAt);
    expect(live.status).toBe('running');
    expect(live.live).toMatchObject({ answered: true, readAt: ISO, done: 2, total: 4, current: { id: 'deposit', status: 'running' } });
    const [trigger, welcome, deposit, ...rest] = live.nodes;
    expect(trigger).toEqual({ id: 'start', status: 'completed', durationMs: 0 });
    expect(welcome).toEqual({ id: 'welcome', status: 'completed', startedAt: ISO, durationMs: expect.any(Number) });
    expect(deposit).toEqual({
      id: 'deposit',
      status: 'running',
      startedAt: ISO,
      durationMs: expect.any(Number),
      waiting: { for: 'event', event: 'entity_event.transaction', until: ISO },
    });
    expect(rest).toEqual([]);
    // The deadline is 600 s after the wait began: the step's start, or just after it once its params are rendered.
    const untilAfterStart = Date.parse(deposit.waiting.until) - Date.parse(deposit.startedAt);
    expect(untilAfterStart).toBeGreaterThanOrEqual(600_000);
    expect(untilAfterStart).toBeLessThan(605_000);
    expect(Date.parse(welcome.startedAt)).toBeGreaterThanOrEqual(startedAt);
    expect(Date.parse(deposit.startedAt)).toBeGreaterThanOrEqual(Date.parse(welcome.startedAt));
    // Nothing sealed reaches the live record: no input, output or rendered text.
    expect(JSON.stringify(live.nodes)).not.toContain('p-live');

    const list = (await acme.wf(`/workflows/${workflow.id}/runs`)).body.data;
    const listed = list.find((item: any) => item.id === runId);
    expect(listed.nodes.map((node: any) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['welcome', 'completed'],
      ['deposit', 'running'],
    ]);
    expect(listed.live.current.waiting).toEqual(deposit.waiting);
    const explored = (await acme.wf(`/runs?workflowId=${workflow.id}`)).body.data;
    expect(explored[0]).toMatchObject({
      id: runId,
      status: 'running',
      live: { answered: true, done: 2, total: 4, current: { id: 'deposit', waiting: deposit.waiting } },
    });

    // Another operator reads none of it.
    expect((await globex.wf(`/runs/${runId}`)).status).toBe(404);
    expect((await globex.wf(`/runs`)).body.data.map((item: any) => item.id)).not.toContain(runId);

    const deposited = await acme.call('/entities/p-live/events', {
      method: 'POST',
      body: { eventType: 'transaction', data: { type: 'deposit', amount: 5000, currency: 'EUR' } },
    });
    expect(deposited.status).toBe(201);
    let done: any;
    await eventually(async () => {
      done = await run(acme, runId);
      return done.status !== 'running';
    }, 20_000);
    expect(done.status).toBe('completed');
    expect(done.live).toBeUndefined();
    expect(done.nodes.map((node: any) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['welcome', 'completed'],
      ['deposit', 'completed'],
      ['tag', 'completed'],
    ]);
  });

  it('shows a step whose HTTP call failed with 503 as retrying: the attempt, the next try and the last error code', async () => {
    const workflow = await acme.create({
      name: 'Flaky hook',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'pause', type: 'action.delay', params: { seconds: 1 } },
        { id: 'hook', type: 'action.http_request', params: { method: 'POST', url: flakyUrl, body: { hello: 'world' } } },
      ],
      edges: [
        { from: 'start', to: 'pause' },
        { from: 'pause', to: 'hook' },
      ],
    });
    const started = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const runId = started.body.data.id as string;

    const seen: any[] = [];
    let retrying: any;
    await eventually(async () => {
      const live = await run(acme, runId);
      const step = live.nodes.find((node: any) => node.status === 'running');
      if (step) seen.push(step);
      retrying = step?.id === 'hook' && step.retrying?.nextAttemptAt ? step : undefined;
      return retrying !== undefined || live.status !== 'running';
    }, 20_000);
    // The delay was seen waiting for the clock, unless the first read came after it (a loaded machine).
    const pause = seen.find((step) => step.id === 'pause');
    if (pause) expect(pause.waiting).toEqual({ for: 'delay', until: ISO });
    expect(retrying).toMatchObject({ id: 'hook', status: 'running', startedAt: ISO });
    expect(retrying.retrying).toEqual({ attempt: expect.any(Number), nextAttemptAt: ISO, lastErrorCode: 'HTTP_503' });
    expect(retrying.retrying.attempt).toBeGreaterThanOrEqual(2);
    expect(Date.parse(retrying.retrying.nextAttemptAt)).toBeGreaterThan(Date.parse(retrying.startedAt));

    let done: any;
    await eventually(async () => {
      done = await run(acme, runId);
      return done.status !== 'running';
    }, 20_000);
    expect(done.status).toBe('completed');
    expect(flakyCalls).toBe(4);
  });
});
