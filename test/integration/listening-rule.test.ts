import { listensTo } from '../../core/automations/listening';
import { automationsListeningTo } from '../../db/queries/outboxDispatch';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';

const EVENTS = ['entity_event.transaction', 'entity_event.session', 'entity_event.kyc', 'entity_event.game_activity'];
const wait = { id: 'wait', type: 'action.delay', params: { seconds: 1 } };

/** An automation whose triggers listen to `events`, with `run_control` when given. */
const listening = (name: string, events: string[], runControl?: unknown) => ({
  name,
  nodes: [...events.map((event, index) => ({ id: `on${index}`, type: 'trigger.event', params: { event } })), wait],
  edges: events.map((_, index) => ({ from: `on${index}`, to: 'wait' })),
  ...(runControl ? { run_control: runControl } : {}),
});

describe('the listening rule: the writers’ SQL function and the dispatcher’s rule agree on every case', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  const since = new Date(Date.now() - 3_600_000);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
    ids.deposits = (await acme.create(listening('Deposits', ['entity_event.transaction']))).id;
    ids.sessions = (await acme.create(listening('Sessions and deposits', ['entity_event.session', 'entity_event.transaction']))).id;
    ids.paused = (await acme.create({ ...listening('Paused', ['entity_event.session']), active: false })).id;
    ids.deleted = (await acme.create(listening('Deleted', ['entity_event.kyc']))).id;
    ids.cancelled = (await acme.create(listening('Cancelled by KYC', ['entity_event.transaction'], { cancel_on: ['entity_event.kyc'] }))).id;
    ids.rival = (await rival.create(listening('Rival deposits', ['entity_event.transaction']))).id;
    const db = app.deps.db;
    await db('automations').where({ id: ids.deleted }).update({ deleted_at: new Date() });
    await db('automations').where({ id: ids.sessions }).update({ events_since: since });
  });
  afterAll(() => app.close());

  it('hears exactly what outbox_event_heard hears, for each operator, event, time and origin', async () => {
    const db = app.deps.db;
    const outcomes: boolean[] = [];
    const disagreements: string[] = [];
    for (const operatorId of [acme.operator.operatorId, rival.operator.operatorId]) {
      for (const event of EVENTS) {
        for (const occurred of [new Date(since.getTime() - 60_000), new Date(since.getTime() + 60_000), new Date()]) {
          for (const origin of [null, ids.deposits!, ids.sessions!, ids.cancelled!, ids.rival!]) {
            const { rows } = await db.raw<{ rows: Array<{ heard: boolean }> }>('SELECT outbox_event_heard(?::uuid, ?, ?::timestamptz, ?) AS heard', [
              operatorId,
              event,
              occurred,
              origin,
            ]);
            const row = { operator_id: operatorId, event, occurred_at: occurred, origin_automation_id: origin };
            const candidates = await db.transaction((trx) => automationsListeningTo(trx, [operatorId], [event]));
            const heard = candidates.some((automation) => listensTo(automation, row));
            outcomes.push(heard);
            if (heard !== rows[0]!.heard) disagreements.push(`${JSON.stringify(row)}: SQL ${rows[0]!.heard}, rule ${heard}`);
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
    // Both answers occur, so the comparison has cases of each.
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(10);
    expect(outcomes.filter((heard) => !heard).length).toBeGreaterThan(10);
  });
});
