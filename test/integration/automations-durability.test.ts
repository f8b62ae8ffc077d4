import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `GET /runs/:id` until `done(run)` holds. */
async function pollRun(client: AutomationsClient, runId: string, done: (run: any) => boolean, timeoutMs: number): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.wf(`/runs/${runId}`);
    if (response.status === 200 && done(response.body.data)) return response.body.data;
    if (Date.now() > deadline) throw new Error(`run ${runId} not done in time: ${response.status} ${response.text}`);
    await sleep(100);
  }
}

/** Waits until the run's Temporal history holds the delay's timer: the worker is then mid-delay, not mid-task. */
async function timerStarted(app: TestApp, temporalWorkflowId: string): Promise<void> {
  const handle = app.deps.temporal.client.workflow.getHandle(temporalWorkflowId);
  const deadline = Date.now() + 5_000;
  for (;;) {
    const history = await handle.fetchHistory();
    if (history.events?.some((event) => event.timerStartedEventAttributes)) return;
    if (Date.now() > deadline) throw new Error('the delay timer never started');
    await sleep(50);
  }
}

describe('a delay survives the worker being killed (durable timer)', () => {
  const queue = `wf-durable-${randomUUID()}`;
  let provider: TestProvider;
  let first: WorkerProcess;
  let second: WorkerProcess | undefined;
  let app: TestApp;
  let client: AutomationsClient;

  beforeAll(async () => {
    provider = await startProvider(() => ({ status: 200, body: { received: true } }));
    first = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, WORKFLOW_TEST_WAIT_MS: '300' });
    client = await automationsClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await first?.kill();
    await second?.stop();
    await provider?.close();
  });

  it('SIGKILL during action.delay, a new worker on the queue: the run completes and the HTTP call is made once', async () => {
    const workflow = await client.create(
      chain('Wait then notify', [
        { id: 'wait', type: 'action.delay', params: { seconds: 3 } },
        {
          id: 'notify',
          type: 'action.http_request',
          params: { method: 'POST', url: `${provider.url}/after-delay`, body: { player: '{{ trigger.playerId }}', waited: '{{ nodes.wait.waitedSeconds }}' } },
        },
      ]),
    );

    const started = await client.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-1' } });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({
      id: expect.stringMatching(/^run_/),
      workflowId: workflow.id,
      source: 'manual',
      status: 'running',
      output: null,
      nodes: [],
      completedAt: null,
      durationMs: null,
    });
    const runId = started.body.data.id as string;

    const running = await pollRun(client, runId, (run) => run.status === 'running', 5_000);
    expect(running).toMatchObject({ status: 'running', input: { playerId: 'p-1' } });
    await timerStarted(app, `automation-manual-${runId}`);
    await first.kill();
    expect(first.child.signalCode).toBe('SIGKILL');

    // The timer fires while no worker polls the queue; the run just waits.
    await sleep(3_500);
    expect((await client.wf(`/runs/${runId}`)).body.data.status).toBe('running');
    expect(provider.requests).toHaveLength(0);

    second = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue });
    const finished = await pollRun(client, runId, (run) => run.status !== 'running', 40_000);
    expect(finished).toMatchObject({ id: runId, status: 'completed', output: { status: 200, body: { received: true } } });
    expect(finished.nodes.map((node: any) => [node.id, node.status])).toEqual([
      ['start', 'completed'],
      ['wait', 'completed'],
      ['notify', 'completed'],
    ]);
    expect(finished.nodes[1].output).toEqual({ waitedSeconds: 3 });
    expect(finished.durationMs).toBeGreaterThanOrEqual(3_000);
    expect(provider.requests).toHaveLength(1);
    expect([provider.requests[0]!.path, provider.requests[0]!.json]).toEqual(['/after-delay', { player: 'p-1', waited: 3 }]);
    // The same key on every attempt of this node of this run, so a receiver can drop a retry's repeat.
    expect(provider.requests[0]!.headers['idempotency-key']).toBe(`${runId}:notify`);

    await sleep(1_000);
    expect(provider.requests).toHaveLength(1);
  });
});
