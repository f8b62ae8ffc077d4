import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig, parseConfig } from '../../core/config';
import { runDiagnostics } from '../../temporal/diagnostics';
import { ensurePlatformSchedules, OUTBOX_SWEEP_SCHEDULE_ID } from '../../temporal/platformSchedules';
import { taskQueuesOf } from '../../temporal/taskQueues';
import { polledQueues } from '../../worker/workerGroup';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob } from '../helpers/data';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

/**
 * The interactive and background task queues (temporal/taskQueues.ts) with workers of one role each
 * (`WORKER_QUEUES`), on a task queue of this file's own so the shared worker polls neither.
 */
const queue = `queues-${randomUUID()}`;
let app: TestApp;
let interactive: WorkerProcess | undefined;
let background: WorkerProcess | undefined;

beforeAll(async () => {
  app = await startTestApp({ TEMPORAL_TASK_QUEUE: queue, BATCH_CHUNK_SIZE: '10' });
});
afterAll(async () => {
  await interactive?.stop();
  await background?.stop();
  await app.close();
});

describe('task queues by workload', () => {
  it('runs interactive work on <queue> and batch work on <queue>-background, each with a worker of that role', async () => {
    interactive = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, WORKER_QUEUES: 'interactive' });
    const diagnostics = await runDiagnostics(app.deps.temporal, 'interactive');
    const described = await app.deps.temporal.client.workflow.getHandle(diagnostics.workflowId).describe();
    expect(described.taskQueue).toBe(queue);

    const client = await dataClient(app);
    await client.call('/entities', { body: { entityType: 'player', externalId: 'queues', data: {} } });
    const body = Array.from({ length: 30 }, (_, i) => ({ externalId: 'queues', eventType: 'bonus', data: { bonus_id: `q-${i}` } }));
    const jobId = (await client.call('/batch/events', { body })).body.data.jobId as string;
    const batch = await app.deps.temporal.client.workflow.getHandle(jobId).describe();
    expect(batch.taskQueue).toBe(`${queue}-background`);
    // Only an interactive worker polls: the job waits for a background one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await client.call(`/batch/jobs/${jobId}`)).body.data.status).toBe('queued');

    background = await spawnWorker({ TEMPORAL_TASK_QUEUE: queue, WORKER_QUEUES: 'background' });
    const job = await waitForJob(client, jobId, 60_000);
    expect(job.status).toBe('completed');
    expect(job.output).toMatchObject({ succeeded: 30, failed: 0 });
  }, 120_000);

  it('moves a platform Schedule created before the split to the background queue, changing nothing else', async () => {
    // The shared Schedules of the test services, on their own queues: the shared worker keeps polling both.
    const shared = { client: app.deps.temporal.client, backgroundTaskQueue: taskQueuesOf(loadConfig()).background };
    await ensurePlatformSchedules(shared);
    const handle = app.deps.temporal.client.schedule.getHandle(OUTBOX_SWEEP_SCHEDULE_ID);
    const before = await handle.describe();
    await handle.update((previous) => ({ ...previous, action: { ...previous.action, taskQueue: loadConfig().TEMPORAL_TASK_QUEUE } }));
    await ensurePlatformSchedules(shared);
    const after = await handle.describe();
    expect(after.action.taskQueue).toBe(shared.backgroundTaskQueue);
    expect(after.spec).toEqual(before.spec);
    expect(after.action.type === 'startWorkflow' && after.action.workflowType).toBe('outboxSweepWorkflow');
  });

  it('puts everything on one queue with TEMPORAL_SPLIT_QUEUES=false, polled by one worker; the interactive role polls the waiting queue too', () => {
    const one = parseConfig({ TEMPORAL_TASK_QUEUE: 'q', TEMPORAL_SPLIT_QUEUES: 'false' });
    expect(polledQueues(one)).toEqual([{ role: 'interactive', taskQueue: 'q', slots: { workflowThreadPoolSize: 2 } }]);
    const both = polledQueues(parseConfig({ TEMPORAL_TASK_QUEUE: 'q', DATABASE_POOL_MAX: '20' }));
    expect(both.map((polled) => [polled.role, polled.taskQueue, polled.slots.maxConcurrentActivityTaskExecutions])).toEqual([
      ['interactive', 'q', undefined],
      ['waiting', 'q-waiting', undefined],
      ['background', 'q-background', 10],
    ]);
    const interactiveRole = polledQueues(parseConfig({ TEMPORAL_TASK_QUEUE: 'q', WORKER_QUEUES: 'interactive' }));
    expect(interactiveRole.map((polled) => polled.taskQueue)).toEqual(['q', 'q-waiting']);
    expect(interactiveRole[0]!.slots).toEqual({ workflowThreadPoolSize: 2 });
    expect(interactiveRole[1]!.slots).toEqual({ maxConcurrentWorkflowTaskExecutions: 2, maxConcurrentLocalActivityExecutions: 4 });
    expect(polledQueues(parseConfig({ TEMPORAL_TASK_QUEUE: 'q', WORKER_QUEUES: 'background' })).map((polled) => polled.taskQueue)).toEqual(['q-background']);
  });

  it('refuses contradictory settings at start-up, naming the variables', () => {
    expect(() => parseConfig({ WORKER_QUEUES: 'background', TEMPORAL_SPLIT_QUEUES: 'false' })).toThrow(ConfigError);
    expect(() => parseConfig({ TEMPORAL_TLS_CERT_PATH: '/x.pem' })).toThrow(/TEMPORAL_TLS_KEY_PATH/);
    expect(() => parseConfig({ TEMPORAL_TLS: 'false', TEMPORAL_TLS_CA_PATH: '/ca.pem' })).toThrow(/TEMPORAL_TLS: false contradicts TEMPORAL_TLS_CA_PATH/);
    expect(parseConfig({ TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: 'k' }).TEMPORAL_API_KEY).toBe('k');
  });
});
