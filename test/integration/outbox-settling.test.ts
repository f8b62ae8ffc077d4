import { startTestApp, type TestApp } from '../helpers/app';
import { waitForJob } from '../helpers/data';
import { waitForRuns, automationsClient, type AutomationsClient } from '../helpers/automations';

/**
 * An internal event that no automation can fire is written to the outbox already dispatched (no NOTIFY, no
 * dispatcher pass); one that an active automation listens to is written pending and dispatched to its run.
 */
let app: TestApp;
let acme: AutomationsClient;
beforeAll(async () => {
  app = await startTestApp();
  acme = await automationsClient(app);
  expect((await acme.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: {} } })).status).toBe(201);
});
afterAll(() => app.close());

const outboxOf = (eventId: string) => app.deps.db('outbox_events').where({ operator_id: acme.operator.operatorId, source_event_id: eventId }).first();

describe('outbox rows nobody listens to', () => {
  it('a single event, a batch and an entity change are stored already dispatched', async () => {
    const single = await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'session', data: { device: 'ios' } } });
    expect(single.status).toBe(201);
    const row = await outboxOf(single.body.data.id);
    expect(row).toMatchObject({ event: 'entity_event.session', payload: null });
    expect(row.dispatched_at).toEqual(row.occurred_at);

    const batch = await acme.call('/batch/events', {
      method: 'POST',
      body: [
        { externalId: 'p-1', eventType: 'session', data: {} },
        { externalId: 'p-1', eventType: 'bonus', data: {} },
      ],
    });
    expect((await waitForJob(acme, batch.body.data.jobId)).status).toBe('completed');
    const updated = await acme.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } });
    expect(updated.status).toBe(200);
    const pending = await app.deps
      .db('outbox_events')
      .where({ operator_id: acme.operator.operatorId })
      .whereNull('dispatched_at')
      .count<{ count: string }[]>({ count: '*' });
    expect(Number(pending[0]!.count)).toBe(0);
  });
});

describe('deposits nobody listens to', () => {
  it('are written pending for the harm check, then settled by the dispatcher; a withdrawal or a failed deposit is settled at once', async () => {
    const insert = (data: Record<string, unknown>) => acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'transaction', data } });
    const deposit = await insert({ type: 'deposit', amount: 500, currency: 'EUR' });
    const failed = await insert({ type: 'deposit', amount: 500, currency: 'EUR', status: 'failed' });
    const withdrawal = await insert({ type: 'withdrawal', amount: 500, currency: 'EUR' });
    expect([deposit.status, failed.status, withdrawal.status]).toEqual([201, 201, 201]);
    const [row, failedRow, withdrawalRow] = await Promise.all([deposit, failed, withdrawal].map((answer) => outboxOf(answer.body.data.id)));
    expect(failedRow.dispatched_at).toEqual(failedRow.occurred_at);
    expect(withdrawalRow.dispatched_at).toEqual(withdrawalRow.occurred_at);
    expect(row.dispatched_at === null || new Date(row.dispatched_at) > new Date(row.occurred_at)).toBe(true);
    const deadline = Date.now() + 20_000;
    while ((await outboxOf(deposit.body.data.id)).dispatched_at === null) {
      if (Date.now() > deadline) throw new Error('the deposit was never settled');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});

describe('outbox rows an automation listens to', () => {
  it('are written pending and dispatched to a run; other event types of the operator are settled at once', async () => {
    const workflow = await acme.create({
      name: 'Deposits',
      nodes: [
        { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
        {
          id: 'flag',
          type: 'action.set_state',
          params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: '{{ trigger.data.amount }}' },
        },
      ],
      edges: [{ from: 'start', to: 'flag' }],
    });
    const insert = (eventType: string, data: Record<string, unknown>) => acme.call('/entities/p-1/events', { method: 'POST', body: { eventType, data } });
    const deposit = await insert('transaction', { type: 'deposit', amount: 500, currency: 'EUR' });
    const session = await insert('session', { device: 'web' });
    expect((await outboxOf(session.body.data.id)).dispatched_at).not.toBeNull();
    const runs = await waitForRuns(acme, workflow.id, 1);
    expect(runs.map((run) => [run.status, run.error])).toEqual([['completed', undefined]]);
    const dispatched = await outboxOf(deposit.body.data.id);
    expect(dispatched.dispatched_at).not.toBeNull();
    expect(new Date(dispatched.dispatched_at).getTime()).toBeGreaterThanOrEqual(new Date(dispatched.occurred_at).getTime());
    expect((await acme.call('/entities/p-1/state/risk_score')).body.data.value).toBe(500);
  });
});
