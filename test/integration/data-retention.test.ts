import { randomUUID } from 'node:crypto';
import { ensurePlatformSchedules, RETENTION_SCHEDULE_ID } from '../../temporal/platformSchedules';
import type { retentionWorkflow } from '../../workflows';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

let app: TestApp;
let client: DataClient;
let entityId: string;
const asOf = new Date('2031-06-01T00:00:00Z');
const daysBefore = (days: number) => new Date(asOf.getTime() - days * 86_400_000);

async function runRetention() {
  return app.deps.temporal.client.workflow.execute<typeof retentionWorkflow>('retentionWorkflow', {
    taskQueue: app.deps.config.TEMPORAL_TASK_QUEUE,
    workflowId: `retention-test-${randomUUID()}`,
    args: [{ asOf: asOf.toISOString() }],
  });
}

beforeAll(async () => {
  app = await startTestApp();
  client = await dataClient(app);
  await client.call('/settings', {
    method: 'PUT',
    body: { retentionPolicy: { entity_events: { hot_days: 30, archive_days: 365 }, entity_states: { hot_days: 60, archive_days: 400 } } },
  });
  const created = await client.call('/entities', { body: { entityType: 'player', externalId: 'ret', data: {} } });
  entityId = created.body.data.id;
  const db = app.deps.db;
  const event = (id: string, age: number) => ({
    id,
    operator_id: client.operator.operatorId,
    entity_id: entityId,
    event_type: 'session',
    data: '{}',
    created_at: daysBefore(age),
  });
  await db('entity_events').insert([event('eev_fresh', 5), event('eev_warm', 40), event('eev_old', 500)]);
  const state = (key: string, age: number) => ({
    operator_id: client.operator.operatorId,
    entity_id: entityId,
    state_key: key,
    value: '1',
    updated_at: daysBefore(age),
  });
  await db('entity_states').insert([state('balance', 10), state('risk_score', 90), state('loyalty_tier', 450)]);
});
afterAll(() => app.close());

describe('retention workflow (fixed clock)', () => {
  it('moves rows past hot_days to archive and deletes rows past archive_days', async () => {
    const counts = await runRetention();
    expect(counts.archivedEvents).toBeGreaterThanOrEqual(2);
    const scope = { operator_id: client.operator.operatorId, entity_id: entityId };
    const hot = await app.deps.db('entity_events').where(scope).pluck('id');
    expect(hot).toEqual(['eev_fresh']);
    const archived = await app.deps.db('entity_events_archive').where(scope).pluck('id');
    expect(archived).toEqual(['eev_warm']);
    expect(await app.deps.db('entity_states').where(scope).pluck('state_key')).toEqual(['balance']);
    expect(await app.deps.db('entity_states_archive').where(scope).pluck('state_key')).toEqual(['risk_score']);
  });

  it('dataRetentionDays deletes everything older, wherever it is; other operators are untouched', async () => {
    const other = await dataClient(app);
    const otherEntity = (await other.call('/entities', { body: { entityType: 'player', externalId: 'keep', data: {} } })).body.data.id;
    await app.deps.db('entity_events').insert({
      id: 'eev_other_old',
      operator_id: other.operator.operatorId,
      entity_id: otherEntity,
      event_type: 'session',
      data: '{}',
      created_at: daysBefore(3000),
    });

    await client.call('/settings', { method: 'PUT', body: { dataRetentionDays: 20 } });
    await runRetention();
    const scope = { operator_id: client.operator.operatorId, entity_id: entityId };
    expect(await app.deps.db('entity_events').where(scope).pluck('id')).toEqual(['eev_fresh']);
    expect(await app.deps.db('entity_events_archive').where(scope).pluck('id')).toEqual([]);
    expect(await app.deps.db('entity_states').where(scope).pluck('state_key')).toEqual(['balance']);
    expect(await app.deps.db('entity_states_archive').where(scope)).toHaveLength(0);
    expect(await app.deps.db('entity_events').where({ id: 'eev_other_old' }).first()).toBeDefined();
  });

  it("expired idempotency keys are purged by the clock, not by the run's asOf, which would forget live ones", async () => {
    const key = (name: string, expiresAt: Date) => ({
      operator_id: client.operator.operatorId,
      key: name,
      request_hash: 'x'.repeat(64),
      expires_at: expiresAt,
    });
    await app.deps.db('idempotency_keys').insert([key('stale', new Date(Date.now() - 86_400_000)), key('live', new Date(Date.now() + 86_400_000))]);
    await runRetention();
    const left = await app.deps.db('idempotency_keys').where({ operator_id: client.operator.operatorId }).whereIn('key', ['stale', 'live']).pluck('key');
    expect(left).toEqual(['live']);
  });
});

describe('retention schedule', () => {
  it('is a Temporal Schedule running retentionWorkflow daily; creating it twice is harmless', async () => {
    await ensurePlatformSchedules(app.deps.temporal);
    await ensurePlatformSchedules(app.deps.temporal);
    const description = await app.deps.temporal.client.schedule.getHandle(RETENTION_SCHEDULE_ID).describe();
    expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retentionWorkflow' });
    expect(description.spec.calendars?.length ?? description.spec.intervals?.length ?? 0).toBeGreaterThan(0);
  });
});
