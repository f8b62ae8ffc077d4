import { randomBytes, randomUUID } from 'node:crypto';
import { Keyring } from '../../core/crypto';
import { createLogger } from '../../core/logger';
import type { Db } from '../../db/knex';
import { DispatchFaults } from '../../worker/dispatchFaults';
import { EventFilters } from '../../worker/eventFilters';
import { EventRouter } from '../../worker/eventRouting';
import { dispatchOperator, type DispatchDeps } from '../../worker/operatorDispatch';
import { WokenWaits } from '../../worker/runWaitSignals';
import { shadowSchema, type ShadowSchema } from '../helpers/shadowSchema';

/**
 * A pass wakes the runs waiting for its events only as far as the organisation has room now (worker/runWaitSignals.ts,
 * docs/workflows.md "Wake-ups are paced"): it never waits inside its transaction for more. The event being woken and
 * every later one stay pending; the next passes wake the rest, each run once. The passes read an outbox and waits of
 * their own (a schema on the search path), so the shared test worker's dispatcher never takes these events.
 */
let shadow: ShadowSchema;
let admin: Db;
let db: Db;
let schema: string;

beforeAll(async () => {
  shadow = await shadowSchema('wake_room', ['outbox_events', 'automation_run_waits']);
  ({ admin, db, name: schema } = shadow);
});
afterAll(() => shadow?.drop());

const entityEvent = (operatorId: string, id: string, event: string, externalId: string) => ({
  id,
  operator_id: operatorId,
  event,
  payload: { id, event, operatorId, occurredAt: new Date().toISOString(), entity: { id: `ent_${externalId}`, externalId, entityType: 'player' }, data: {} },
});

/** An operator with `waiting` runs waiting for p-1's `kyc` event, and three pending events: p-1's kyc, a session, p-2's kyc. */
async function operatorWithWaits(waiting: number): Promise<string> {
  const operatorId = randomUUID();
  const since = new Date(Date.now() - 60_000);
  await admin(`${schema}.automation_run_waits`).insert(
    Array.from({ length: waiting }, (_, i) => ({
      operator_id: operatorId,
      run_id: `run_${i}`,
      node_id: 'kyc',
      temporal_workflow_id: `wf_${operatorId}_${i}`,
      event: 'entity_event.kyc',
      external_id: 'p-1',
      since,
      until: new Date(Date.now() + 3_600_000),
    })),
  );
  await admin(`${schema}.outbox_events`).insert([
    entityEvent(operatorId, 'evt_kyc_1', 'entity_event.kyc', 'p-1'),
    entityEvent(operatorId, 'evt_session', 'entity_event.session', 'p-1'),
    entityEvent(operatorId, 'evt_kyc_2', 'entity_event.kyc', 'p-2'),
  ]);
  return operatorId;
}

/** The dispatcher with an in-flight count the test sets: `capacity` runs, less those woken and not yet finished. */
function dispatcher() {
  const signals: Array<{ workflowId: string; eventId: string }> = [];
  const inFlight = new Set<string>();
  const room = { capacity: 0 };
  const deps: DispatchDeps = {
    db,
    logger: createLogger('silent'),
    keyring: new Keyring(randomBytes(32)),
    router: new EventRouter(new EventFilters({ sandbox: { evaluate: async () => ({ ok: true, value: true }) }, logger: createLogger('silent') })),
    runs: { start: async () => 'started', cancel: async () => undefined },
    inFlight: {
      cap: 50,
      capOf: () => 50,
      room: async () => room.capacity - inFlight.size,
      add: (_operatorId, id) => void inFlight.add(id),
      light: () => false,
      notePending: () => false,
    },
    signalWaitingRun: async (workflowId, signal) => {
      signals.push({ workflowId, eventId: signal.eventId });
      return 'signalled';
    },
    woken: new WokenWaits(),
  };
  return { deps, signals, inFlight, room, faults: new DispatchFaults() };
}

const pendingIds = async (operatorId: string) =>
  (await admin(`${schema}.outbox_events`).where({ operator_id: operatorId }).whereNull('dispatched_at').orderBy('seq').pluck('id')) as string[];

it('wakes as many as it has room for, leaves the event and the later ones pending, and wakes the rest later, each once', async () => {
  const operatorId = await operatorWithWaits(10);
  const { deps, signals, inFlight, room, faults } = dispatcher();
  room.capacity = 3;
  const started = Date.now();
  expect(await dispatchOperator(deps, operatorId, faults)).toEqual({ kind: 'deferred', claimed: 3, started: 0, retryInMs: 100 });
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(signals).toHaveLength(3);
  expect(await pendingIds(operatorId)).toEqual(['evt_kyc_1', 'evt_session', 'evt_kyc_2']);

  // Still no room: the pass stops before it claims anything.
  expect(await dispatchOperator(deps, operatorId, faults)).toEqual({ kind: 'deferred', claimed: 0, started: 0, retryInMs: 100 });
  expect(signals).toHaveLength(3);

  // Runs finish: the next passes wake the others, not the same three again.
  inFlight.clear();
  room.capacity = 5;
  expect((await dispatchOperator(deps, operatorId, faults)).kind).toBe('deferred');
  expect(signals).toHaveLength(8);
  inFlight.clear();
  expect(await dispatchOperator(deps, operatorId, faults)).toEqual({ kind: 'done', claimed: 3, started: 0, full: false });
  expect(await pendingIds(operatorId)).toEqual([]);
  expect(new Set(signals.map((signal) => signal.workflowId)).size).toBe(10);
  expect(new Set(signals.map((signal) => signal.eventId))).toEqual(new Set(['evt_kyc_1']));
}, 30_000);

it('wakes every run in one pass when it has the room, and another organisation meanwhile is not held', async () => {
  const crowded = await operatorWithWaits(10);
  const other = await operatorWithWaits(2);
  const { deps, signals, room, faults } = dispatcher();
  room.capacity = 4;
  expect((await dispatchOperator(deps, crowded, faults)).kind).toBe('deferred');
  const before = signals.length;
  const { deps: roomy, signals: theirs, room: theirRoom } = dispatcher();
  theirRoom.capacity = 50;
  expect(await dispatchOperator(roomy, other, new DispatchFaults())).toEqual({ kind: 'done', claimed: 3, started: 0, full: false });
  expect(theirs.map((signal) => signal.workflowId).sort()).toEqual([`wf_${other}_0`, `wf_${other}_1`]);
  expect(signals).toHaveLength(before);
  expect(await pendingIds(crowded)).toHaveLength(3);
});
