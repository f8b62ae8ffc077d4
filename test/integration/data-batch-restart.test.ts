import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob } from '../helpers/data';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const taskQueue = `batch-restart-${randomUUID()}`;
let app: TestApp;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  app = await startTestApp({ TEMPORAL_TASK_QUEUE: taskQueue, BATCH_CHUNK_SIZE: '25' });
});
afterAll(async () => {
  await worker?.stop();
  await app.close();
});

describe('a worker killed mid-batch', () => {
  it('the job still completes with every valid item stored exactly once', async () => {
    const client = await dataClient(app);
    await client.call('/entities', { body: { entityType: 'player', externalId: 'restart', data: {} } });
    const body = Array.from({ length: 5000 }, (_, i) =>
      i % 50 === 0
        ? { externalId: 'restart', eventType: 'transaction', data: { type: 'deposit' } }
        : { externalId: 'restart', eventType: 'bonus', data: { bonus_id: `b-${i}` } },
    );
    const submitted = await client.call('/batch/events', { body });
    const jobId = submitted.body.data.jobId;

    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: taskQueue });
    const deadline = Date.now() + 60_000;
    let progress = 0;
    while (progress < 10 && Date.now() < deadline) {
      progress = (await client.call(`/batch/jobs/${jobId}`)).body.data.progress;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await worker.kill();
    const atKill = (await client.call(`/batch/jobs/${jobId}`)).body.data;
    expect(atKill.status).toBe('running');
    expect(atKill.progress).toBeLessThan(100);

    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: taskQueue });
    const job = await waitForJob(client, jobId, 120_000);
    expect(job.status).toBe('completed');
    expect(job.output).toMatchObject({ succeeded: 4900, failed: 100 });

    const entity = await app.deps.db('entities').where({ operator_id: client.operator.operatorId, external_id: 'restart' }).first();
    const counts = await app.deps
      .db('entity_events')
      .where({ operator_id: client.operator.operatorId, entity_id: entity.id })
      .select(app.deps.db.raw("count(*)::int AS total, count(DISTINCT data->>'bonus_id')::int AS distinct_ids"));
    expect(counts[0]).toEqual({ total: 4900, distinct_ids: 4900 });
    const outbox = await app.deps
      .db('outbox_events')
      .where({ operator_id: client.operator.operatorId, event: 'entity_event.bonus' })
      .count<{ count: string }[]>({ count: '*' });
    expect(Number(outbox[0]!.count)).toBe(4900);
  }, 180_000);
});
