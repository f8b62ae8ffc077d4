import { automationsListeningTo } from '../../db/queries/outboxDispatch';
import { EventRoutes, TriggerPlans } from '../../worker/eventRouter';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, type AutomationsClient } from '../helpers/automations';

const wait = { id: 'wait', type: 'action.delay', params: { seconds: 1 } };

/** An automation with one `trigger.event` node per [event, filter], and `run_control` when given. */
const listening = (name: string, triggers: Array<[string, string?]>, runControl?: unknown) => ({
  name,
  nodes: [...triggers.map(([event, filter], index) => ({ id: `on${index}`, type: 'trigger.event', params: { event, ...(filter ? { filter } : {}) } })), wait],
  edges: triggers.map((_, index) => ({ from: `on${index}`, to: 'wait' })),
  ...(runControl ? { run_control: runControl } : {}),
});

/** Event data as JSON text: PostgreSQL and `JSON.parse` each read it their own way, as the ingest and the dispatcher do. */
const CASES: Record<string, string[]> = {
  'entity_event.transaction': [
    '{"type":"bet","amount":5}',
    '{"type":"bet","amount":5.0}',
    '{"type":"bet","amount":5e0}',
    '{"type":"bet","amount":5.00000000000000000001}',
    '{"type":"bet","amount":"5"}',
    '{"type":"bet","amount":6}',
    '{"type":"bet","amount":-0}',
    '{"type":"bet","amount":0.0}',
    '{"type":"bet","amount":1e-400}',
    '{"type":"bet","amount":1e400}',
    '{"type":"bet","amount":[5]}',
    '{"type":"bet","amount":{"value":5}}',
    '{"type":"bet","amount":null}',
    '{"type":"bet"}',
    '{"type":"deposit","amount":1}',
    '{"type":"Deposit","amount":20}',
    '{"type":"deposit","amount":20}',
    '{"type":"bet","amount":7,"meta":{"level":3}}',
    '{"type":"bet","amount":7,"meta":{"level":"3"}}',
    '{"type":"bet","amount":7,"meta":[{"level":3}]}',
    '{"type":"bet","amount":7,"meta":null}',
    '{"type":"bet","amount":7,"meta":"x"}',
  ],
  'entity_event.session': ['{"flag":true}', '{"flag":false}', '{"flag":null}', '{"flag":"true"}', '{}', '{"device":"ios"}'],
  'entity_event.kyc': ['{"status":"approved"}', '{"status":"rejected"}'],
  'entity_event.game_activity': ['{"game":"book-of-ra"}', '{"game":"other"}'],
};

describe('narrowing at ingest: outbox_event_heard with the event data and the dispatcher’s routes agree', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
    ids.amount = (await acme.create(listening('Five', [['entity_event.transaction', 'trigger.data.amount = 5']]))).id;
    ids.zero = (await acme.create(listening('Zero', [['entity_event.transaction', '0 = trigger.data.amount']]))).id;
    ids.type = (await acme.create(listening('Deposits', [['entity_event.transaction', 'trigger.data.type = "deposit" and trigger.data.amount > 10']]))).id;
    ids.nested = (await acme.create(listening('Level three', [['entity_event.transaction', 'trigger.data.meta.level = 3']]))).id;
    ids.flag = (await acme.create(listening('Flags', [['entity_event.session', 'trigger.data.flag in [true, null]']]))).id;
    ids.device = (await acme.create(listening('Devices', [['entity_event.session', 'trigger.data.device = "android"']]))).id;
    ids.kyc = (
      await acme.create(listening('KYC', [['entity_event.game_activity', 'trigger.data.game = "book-of-ra"']], { cancel_on: ['entity_event.kyc'] }))
    ).id;
    // Never narrowed: the eventId the dispatcher adds, an entity field, a filter only the sandbox judges.
    ids.rival = (await rival.create(listening('Rival', [['entity_event.transaction', 'trigger.data.eventId = "x"']]))).id;
    ids.rivalEntity = (await rival.create(listening('Rival entity', [['entity_event.session', 'trigger.entity.externalId = "p-9"']]))).id;
    ids.rivalSandbox = (await rival.create(listening('Rival sandbox', [['entity_event.kyc', '$contains(trigger.data.status, "appr")']]))).id;
  });
  afterAll(() => app.close());

  async function sqlHeard(operatorId: string, event: string, data: string, origin: string | null = null): Promise<boolean> {
    const { rows } = await app.deps.db.raw<{ rows: Array<{ heard: boolean }> }>('SELECT outbox_event_heard(?::uuid, ?, now(), ?, ?::jsonb) AS heard', [
      operatorId,
      event,
      origin,
      data,
    ]);
    return rows[0]!.heard;
  }

  /** `outbox_events_heard`, the batch insert's form of the rule: every case of an operator in one call, in order. */
  async function batchHeard(operatorId: string, cases: Array<[string, string]>, origin: string | null = null): Promise<boolean[]> {
    const { rows } = await app.deps.db.raw<{ rows: Array<{ heard: boolean }> }>(
      'SELECT heard FROM outbox_events_heard(?::uuid, now(), ?, ?::text[], ?::jsonb[]) ORDER BY ord',
      [operatorId, origin, cases.map(([event]) => event), cases.map(([, data]) => data)],
    );
    return rows.map((row) => row.heard);
  }

  const everyCase = Object.entries(CASES).flatMap(([event, cases]) => cases.map((data): [string, string] => [event, data]));

  async function routesHeard(operatorId: string, event: string, data: string): Promise<boolean> {
    const automations = await app.deps.db.transaction((trx) => automationsListeningTo(trx, [operatorId], [event]));
    const routes = new EventRoutes(automations, new TriggerPlans());
    const row = { seq: '1', operator_id: operatorId, event, occurred_at: new Date(), origin_automation_id: null };
    const payload = {
      id: 'evt',
      event,
      operatorId,
      entity: { id: 'ent', externalId: 'p-1', entityType: 'player' },
      data: { ...JSON.parse(data), eventId: 'eev_1' },
    };
    return routes.listenersOf(row, payload).length > 0 || routes.cancellersOf(row).length > 0;
  }

  it('never leaves unheard an event the routes give a listener, and narrows exactly where the filters allow', async () => {
    const outcomes: boolean[] = [];
    const lost: string[] = [];
    const inexact: string[] = [];
    for (const client of [acme, rival]) {
      for (const [event, cases] of Object.entries(CASES)) {
        for (const data of cases) {
          const [sql, routes] = [await sqlHeard(client.operator.operatorId, event, data), await routesHeard(client.operator.operatorId, event, data)];
          outcomes.push(sql);
          if (routes && !sql) lost.push(`${event} ${data}`);
          // The rival's filters narrow on what the ingest cannot read (the eventId, an entity field, the sandbox): it hears them all.
          if (client === acme ? sql !== routes : !sql && CASES[event] !== CASES['entity_event.game_activity'])
            inexact.push(`${event} ${data}: SQL ${sql}, routes ${routes}`);
        }
      }
    }
    expect(lost).toEqual([]);
    expect(inexact).toEqual([]);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(15);
    expect(outcomes.filter((heard) => !heard).length).toBeGreaterThan(10);
  });

  it('hears a batch of events exactly as it hears each alone: per operator, by origin, and while a run waits', async () => {
    const oneByOne = async (operatorId: string, origin: string | null = null) => {
      const heard: boolean[] = [];
      for (const [event, data] of everyCase) heard.push(await sqlHeard(operatorId, event, data, origin));
      return heard;
    };
    for (const client of [acme, rival]) {
      const alone = await oneByOne(client.operator.operatorId);
      expect(alone.filter(Boolean).length).toBeGreaterThan(5);
      // The rival's filters narrow on nothing the ingest reads: it hears nearly all.
      if (client === acme) expect(alone.filter((heard) => !heard).length).toBeGreaterThan(5);
      expect(await batchHeard(client.operator.operatorId, everyCase)).toEqual(alone);
    }
    const byItsOwnRun = await oneByOne(acme.operator.operatorId, ids.amount!);
    expect(await batchHeard(acme.operator.operatorId, everyCase, ids.amount!)).toEqual(byItsOwnRun);
    // A run waiting for a session event makes every session event heard, for its operator only.
    const wait = { operator_id: acme.operator.operatorId, run_id: 'run_wait', node_id: 'n', temporal_workflow_id: 'wf', event: 'entity_event.session' };
    await app.deps.db('automation_run_waits').insert({ ...wait, external_id: 'p-1', since: new Date(), until: new Date(Date.now() + 60_000) });
    try {
      const waited = await batchHeard(acme.operator.operatorId, everyCase);
      expect(waited).toEqual(await oneByOne(acme.operator.operatorId));
      expect(waited.filter((heard, i) => everyCase[i]![0] === 'entity_event.session' && !heard)).toEqual([]);
      expect(await batchHeard(rival.operator.operatorId, everyCase)).toEqual(await oneByOne(rival.operator.operatorId));
    } finally {
      await app.deps.db('automation_run_waits').where({ operator_id: wait.operator_id, run_id: wait.run_id }).delete();
    }
  });

  it('leaves a value sealed as PII is to the dispatcher, which opens it first', async () => {
    expect(await sqlHeard(acme.operator.operatorId, 'entity_event.session', '{"device":"enc:v1:abc"}')).toBe(true);
    expect(await sqlHeard(acme.operator.operatorId, 'entity_event.session', '{"device":"ios"}')).toBe(false);
  });

  it('keeps the listening rule: a run of the automation itself does not hear its own event', async () => {
    expect(await sqlHeard(acme.operator.operatorId, 'entity_event.transaction', '{"amount":5}')).toBe(true);
    expect(await sqlHeard(acme.operator.operatorId, 'entity_event.transaction', '{"amount":5}', ids.amount!)).toBe(false);
  });

  it('writes an event no filter takes already dispatched, and one a filter takes pending', async () => {
    const player = await acme.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } });
    expect(player.status).toBe(201);
    const outbox = async (amount: number) => {
      const response = await acme.call('/entities/p-1/events', {
        method: 'POST',
        body: { eventType: 'transaction', data: { type: 'bet', amount, currency: 'EUR' } },
      });
      expect(response.status).toBe(201);
      return app.deps
        .db('outbox_events as o')
        .join('entity_events as e', 'e.id', 'o.source_event_id')
        .where('o.operator_id', acme.operator.operatorId)
        .whereRaw("(e.data ->> 'amount')::numeric = ?", [amount])
        .first<{ written_dispatched: boolean }>(app.deps.db.raw('o.dispatched_at IS NOT DISTINCT FROM o.occurred_at AS written_dispatched'));
    };
    expect((await outbox(6))!.written_dispatched).toBe(true);
    expect((await outbox(5))!.written_dispatched).toBe(false);
  });

  it('follows an edit, and hears every event again after a write the commands did not narrow', async () => {
    const operatorId = acme.operator.operatorId;
    const updated = await acme.wf(`/workflows/${ids.amount}`, {
      method: 'PUT',
      body: listening('Five', [['entity_event.transaction', 'trigger.data.amount = 8']]),
    });
    expect(updated.status).toBe(200);
    expect(await sqlHeard(operatorId, 'entity_event.transaction', '{"type":"bet","amount":5}')).toBe(false);
    expect(await sqlHeard(operatorId, 'entity_event.transaction', '{"type":"bet","amount":8}')).toBe(true);
    await app.deps
      .db('automations')
      .where({ id: ids.amount })
      .update({ trigger_events: ['entity_event.transaction'] });
    expect(await sqlHeard(operatorId, 'entity_event.transaction', '{"type":"bet","amount":5}')).toBe(true);
    await app.deps.db('automations').where({ id: ids.amount }).update({ active: false });
    await app.deps.db('automations').whereIn('id', [ids.zero!, ids.type!, ids.nested!]).update({ deleted_at: new Date() });
    expect(await sqlHeard(operatorId, 'entity_event.transaction', '{"type":"bet","amount":5}')).toBe(false);
  });
});
