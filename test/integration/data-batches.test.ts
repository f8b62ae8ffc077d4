import { startTestApp, type TestApp } from '../helpers/app';
import { startBatchIngest } from '../../temporal/batchJobs';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';

let app: TestApp;
let client: DataClient;
beforeAll(async () => {
  app = await startTestApp({ BATCH_CHUNK_SIZE: '400' });
  client = await dataClient(app);
});
afterAll(() => app.close());

describe('batch input', () => {
  it.each([
    ['/batch/entities', { not: 'an array' }, 1000],
    ['/batch/events', [], 5000],
    ['/batch/states', Array.from({ length: 1001 }, () => ({})), 1000],
    ['/batch/entities', Array.from({ length: 1001 }, () => ({})), 1000],
  ])('400 INVALID_INPUT for %s %#', async (path, body, limit) => {
    const response = await client.call(path, { body });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: 'INVALID_INPUT', message: `Body must be an array of 1 to ${limit} items` });
  });

  it('rejects 5001 events (the limit is 5000)', async () => {
    const item = { externalId: 'nobody', eventType: 'session', data: {} };
    expect((await client.call('/batch/events', { body: Array.from({ length: 5001 }, () => item) })).status).toBe(400);
  });
});

describe('batch jobs on Temporal', () => {
  it('entities: valid items are stored, invalid ones listed with index, externalId, code and message', async () => {
    const body = [
      { entityType: 'player', externalId: 'b-1', data: { first_name: 'Bo', country: 'SE' } },
      { entityType: 'player', externalId: 'b-2', data: { status: 'unknown-status' } },
      { entityType: 'player', data: {} },
      { entityType: 'player', externalId: 'b-3', data: {} },
      'not an object',
    ];
    const submitted = await client.call('/batch/entities', { body });
    expect(submitted.status).toBe(202);
    expect(submitted.body).toEqual({ success: true, data: { jobId: expect.stringMatching(/^job_/), status: 'queued' } });
    const job = await waitForJob(client, submitted.body.data.jobId);
    expect(job).toMatchObject({ id: submitted.body.data.jobId, type: 'batch_ingest_entities', status: 'completed', progress: 100, error: null });
    expect(job.output.succeeded).toBe(2);
    expect(job.output.failed).toBe(3);
    expect(job.output.errors).toEqual([
      { index: 1, externalId: 'b-2', code: 'VALIDATION_FAILED', message: expect.stringContaining('data.status') },
      { index: 2, externalId: null, code: 'MISSING_FIELDS', message: 'Missing required fields: externalId' },
      { index: 4, externalId: null, code: 'VALIDATION_FAILED', message: expect.any(String) },
    ]);
    const rows = await app.deps.db('entities').where({ operator_id: client.operator.operatorId }).whereIn('external_id', ['b-1', 'b-2', 'b-3']);
    expect(rows.map((row) => row.external_id).sort()).toEqual(['b-1', 'b-3']);
    expect(rows.find((row) => row.external_id === 'b-1').data.first_name).toMatch(/^enc:v1:/);
  });

  it('events: 2,000 items across chunks, each valid one stored exactly once', async () => {
    await client.call('/entities', { body: { entityType: 'player', externalId: 'bulk', data: {} } });
    const body = Array.from({ length: 2000 }, (_, i) =>
      i % 100 === 99
        ? { externalId: 'missing-player', eventType: 'game_activity', data: { game_id: 'g', bet_amount: 1 } }
        : { externalId: 'bulk', eventType: 'game_activity', data: { game_id: `g-${i}`, bet_amount: i } },
    );
    const submitted = await client.call('/batch/events', { body });
    const waiting = await app.deps.db('batch_jobs').where({ operator_id: client.operator.operatorId, id: submitted.body.data.jobId }).first('status', 'input');
    expect(waiting.status).not.toBe('completed');
    expect(waiting.input).toEqual({ chunkSize: 400, chunks: Array.from({ length: 5 }, () => expect.stringMatching(/^enc:v1:/)) });
    expect(JSON.stringify(waiting.input)).not.toContain('game_activity');
    const job = await waitForJob(client, submitted.body.data.jobId);
    expect(job.output.succeeded).toBe(1980);
    expect(job.output.failed).toBe(20);
    expect(job.output.errors[0]).toEqual({
      index: 99,
      externalId: 'missing-player',
      code: 'ENTITY_NOT_FOUND',
      message: 'No entity with externalId missing-player',
    });
    const stored = await app.deps
      .db('entity_events as e')
      .join('entities as n', 'n.id', 'e.entity_id')
      .where({ 'e.operator_id': client.operator.operatorId, 'n.external_id': 'bulk' })
      .count<{ count: string }[]>({ count: '*' });
    expect(Number(stored[0]!.count)).toBe(1980);
    const chunks = await app.deps.db('batch_job_chunks').where({ job_id: job.id });
    expect(chunks).toHaveLength(5);
  });

  it('events: an erased player and an unknown one are refused at their places, the rest stored', async () => {
    await client.call('/entities', { body: { entityType: 'player', externalId: 'kept', data: {} } });
    await client.call('/entities', { body: { entityType: 'player', externalId: 'erased', data: {} } });
    expect((await client.call('/entities/erased', { method: 'DELETE' })).status).toBe(200);
    const on = (externalId: string, i: number) => ({ externalId, eventType: 'game_activity', data: { game_id: `e-${i}`, bet_amount: i } });
    const body = [on('kept', 0), on('erased', 1), on('kept', 2), on('nobody', 3), on('kept', 4)];
    const job = await waitForJob(client, (await client.call('/batch/events', { body })).body.data.jobId);
    expect(job.output.succeeded).toBe(3);
    expect(job.output.errors.map((e: { index: number; code: string }) => [e.index, e.code])).toEqual([
      [1, 'ENTITY_ERASED'],
      [3, 'ENTITY_NOT_FOUND'],
    ]);
    const games = await app.deps.db('entity_events').where({ operator_id: client.operator.operatorId }).whereRaw("data->>'game_id' LIKE 'e-%'").pluck('data');
    expect(games.map((data: { game_id: string }) => data.game_id).sort()).toEqual(['e-0', 'e-2', 'e-4']);
  });

  it('a job stored before batch items were sealed (a plain array) is read as stored, then dropped', async () => {
    await client.call('/entities', { body: { entityType: 'player', externalId: 'legacy', data: {} } });
    const jobId = `job_legacy_${Date.now()}`;
    const items = Array.from({ length: 5 }, (_, i) => ({ externalId: 'legacy', eventType: 'game_activity', data: { game_id: `legacy-${i}`, bet_amount: i } }));
    await app.deps
      .db('batch_jobs')
      .insert({ id: jobId, operator_id: client.operator.operatorId, type: 'batch_ingest_events', total_items: 5, input: JSON.stringify(items) });
    await startBatchIngest(app.deps.temporal, { operatorId: client.operator.operatorId, jobId, kind: 'events', totalItems: 5, chunkSize: 2 });
    const job = await waitForJob(client, jobId);
    expect(job.output).toEqual({ succeeded: 5, failed: 0, errors: [] });
    expect((await app.deps.db('batch_jobs').where({ id: jobId }).first('input')).input).toEqual([]);
  });

  it('states: last write per key wins; unknown keys and entities are item errors', async () => {
    await client.call('/entities', { body: { entityType: 'player', externalId: 's-1', data: {} } });
    const submitted = await client.call('/batch/states', {
      body: [
        { externalId: 's-1', stateKey: 'balance', value: 10 },
        { externalId: 's-1', stateKey: 'balance', value: 20 },
        { externalId: 's-1', stateKey: 'mood', value: 'happy' },
        { externalId: 'nobody', stateKey: 'balance', value: 1 },
        { externalId: 's-1', stateKey: 'kyc_status' },
      ],
    });
    const job = await waitForJob(client, submitted.body.data.jobId);
    expect(job.output.succeeded).toBe(2);
    expect(job.output.errors.map((e: { index: number; code: string }) => [e.index, e.code])).toEqual([
      [2, 'VALIDATION_FAILED'],
      [3, 'ENTITY_NOT_FOUND'],
      [4, 'MISSING_FIELDS'],
    ]);
    expect((await client.call('/entities/s-1/state/balance')).body.data.value).toBe(20);
  });

  it("404 NOT_FOUND for an unknown job and for another operator's job", async () => {
    const submitted = await client.call('/batch/entities', { body: [{ entityType: 'player', externalId: 'iso', data: {} }] });
    await waitForJob(client, submitted.body.data.jobId);
    const other = await dataClient(app);
    for (const response of [await other.call(`/batch/jobs/${submitted.body.data.jobId}`), await client.call('/batch/jobs/job_nope')]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });
});
