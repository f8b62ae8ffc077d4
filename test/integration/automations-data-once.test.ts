import { createDataActivities } from '../../activities/automation/data';
import type { ActivityDeps } from '../../activities/deps';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

/**
 * A data action is a local activity: a worker that dies after its transaction commits and before the workflow task
 * that ran it completes makes the new worker run it again on replay. The run and node's key makes that repeat a no-op.
 */
let app: TestApp;
let client: DataClient;
let writeData: ReturnType<typeof createDataActivities>['automationWriteData'];

beforeAll(async () => {
  app = await startTestApp();
  client = await dataClient(app);
  await client.call('/entities', { body: { entityType: 'player', externalId: 'p-once', data: {} } });
  writeData = createDataActivities({ db: app.deps.db, keyring: app.deps.keyring } as ActivityDeps).automationWriteData;
});
afterAll(async () => {
  await app.close();
});

const events = async (bonusId: string) =>
  Number(
    (
      await app.deps
        .db('entity_events')
        .where({ operator_id: client.operator.operatorId })
        .whereRaw("data->>'bonus_id' = ?", [bonusId])
        .count<Array<{ count: string }>>({ count: '*' })
    )[0]!.count,
  );

describe('a data action run again for the same run and node', () => {
  it("action.record_event records the event once and answers the first write's output both times", async () => {
    const input = {
      operatorId: client.operator.operatorId,
      automationId: 'wf_once',
      idempotencyKey: 'run_once1:record',
      kind: 'event' as const,
      externalId: 'p-once',
      eventType: 'bonus',
      data: { bonus_id: 'once-1' },
    };
    const first = await writeData(input);
    const again = await writeData(input);
    expect(first).toEqual({ id: expect.stringMatching(/^eev_/), externalId: 'p-once', eventType: 'bonus' });
    expect(again).toEqual(first);
    expect(await events('once-1')).toBe(1);
    const outbox = await app.deps
      .db('outbox_events')
      .where({ operator_id: client.operator.operatorId, source_event_id: first.id })
      .count<Array<{ count: string }>>({ count: '*' });
    expect(Number(outbox[0]!.count)).toBe(1);
  });

  it('another node of the same run, or a write without a key, writes again', async () => {
    const base = {
      operatorId: client.operator.operatorId,
      automationId: 'wf_once',
      kind: 'event' as const,
      externalId: 'p-once',
      eventType: 'bonus',
      data: { bonus_id: 'once-2' },
    };
    await writeData({ ...base, idempotencyKey: 'run_once2:a' });
    await writeData({ ...base, idempotencyKey: 'run_once2:b' });
    await writeData(base);
    await writeData(base);
    expect(await events('once-2')).toBe(4);
  });

  it('action.set_state answers with its value on the repeat, and the stored answer does not keep the value', async () => {
    const input = {
      operatorId: client.operator.operatorId,
      automationId: 'wf_once',
      idempotencyKey: 'run_once3:mark',
      kind: 'state' as const,
      externalId: 'p-once',
      key: 'risk_score',
      value: 77,
    };
    expect(await writeData(input)).toEqual({ externalId: 'p-once', key: 'risk_score', value: 77 });
    expect(await writeData(input)).toEqual({ externalId: 'p-once', key: 'risk_score', value: 77 });
    const stored = await app.deps
      .db('idempotency_keys')
      .where({ operator_id: client.operator.operatorId, key: 'automation:run_once3:mark' })
      .first('response_body');
    expect(stored.response_body).toEqual({ data: { externalId: 'p-once', key: 'risk_score' } });
  });

  it('a refused write leaves no key behind, so nothing is remembered for it', async () => {
    const input = {
      operatorId: client.operator.operatorId,
      automationId: 'wf_once',
      idempotencyKey: 'run_once4:bad',
      kind: 'event' as const,
      externalId: 'nobody',
      eventType: 'bonus',
      data: {},
    };
    await expect(writeData(input)).rejects.toMatchObject({ type: 'ENTITY_NOT_FOUND' });
    expect(await app.deps.db('idempotency_keys').where({ operator_id: client.operator.operatorId, key: 'automation:run_once4:bad' }).first()).toBeUndefined();
  });
});
