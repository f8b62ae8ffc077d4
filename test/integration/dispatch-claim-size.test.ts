import { randomBytes, randomUUID } from 'node:crypto';
import { Keyring } from '../../core/crypto';
import { createLogger } from '../../core/logger';
import type { Db } from '../../db/knex';
import { DispatchFaults } from '../../worker/dispatchFaults';
import { EventFilters } from '../../worker/eventFilters';
import { EventRouter } from '../../worker/eventRouting';
import { BATCH, dispatchOperator, type DispatchDeps } from '../../worker/operatorDispatch';
import { shadowSchema, type ShadowSchema } from '../helpers/shadowSchema';

/**
 * How many pending events a dispatch pass claims (worker/operatorDispatch.ts `claimSize`): a window's worth while the
 * organisation is held to the contended cap, a whole batch otherwise; and what the pass tells the in-flight cap it
 * found. The passes read an outbox of their own (a schema on the search path), so the shared test worker's dispatcher
 * never takes these events.
 */
let shadow: ShadowSchema;
let admin: Db;
let db: Db;
let schema: string;

beforeAll(async () => {
  shadow = await shadowSchema('claim_size', ['outbox_events']);
  ({ admin, db, name: schema } = shadow);
});
afterAll(() => shadow?.drop());

/** `count` session events of a new operator that nothing hears, pending in the test's outbox. */
async function pending(count: number): Promise<string> {
  const operatorId = randomUUID();
  await admin(`${schema}.outbox_events`).insert(
    Array.from({ length: count }, (_, i) => ({ id: `evt_${i}`, operator_id: operatorId, event: 'entity_event.session', payload: { n: i } })),
  );
  return operatorId;
}

/** The dispatcher's in-flight cap as the pass sees it: held to the contended cap of 2 or given the whole 50. */
const inFlight = (contended: boolean): NonNullable<DispatchDeps['inFlight']> => ({
  cap: 50,
  capOf: () => (contended ? 2 : 50),
  room: async () => (contended ? 2 : 50),
  add: () => undefined,
  light: () => false,
  notePending: () => false,
});

const deps = (contended: boolean): DispatchDeps => ({
  db,
  logger: createLogger('silent'),
  keyring: new Keyring(randomBytes(32)),
  router: new EventRouter(new EventFilters({ sandbox: { evaluate: async () => ({ ok: true, value: true }) }, logger: createLogger('silent') })),
  runs: { start: async () => 'started', cancel: async () => undefined },
  inFlight: inFlight(contended),
});

const left = async (operatorId: string) =>
  Number((await admin(`${schema}.outbox_events`).where({ operator_id: operatorId }).whereNull('dispatched_at').count({ n: '*' }))[0]!.n);

it('claims a window of 64 events while the organisation is held to the contended cap, and the rest in order after', async () => {
  const operatorId = await pending(100);
  const faults = new DispatchFaults();
  expect(await dispatchOperator(deps(true), operatorId, faults)).toEqual({ kind: 'done', claimed: 64, started: 0, full: true });
  expect(await left(operatorId)).toBe(36);
  const oldest = await admin(`${schema}.outbox_events`).where({ operator_id: operatorId }).whereNull('dispatched_at').min({ id: 'id' });
  expect(oldest[0]!.id).toBe('evt_64');
  expect(await dispatchOperator(deps(true), operatorId, faults)).toEqual({ kind: 'done', claimed: 36, started: 0, full: false });
  expect(await left(operatorId)).toBe(0);
});

it('claims a whole batch when the organisation has the whole cap', async () => {
  const operatorId = await pending(BATCH + 10);
  expect(await dispatchOperator(deps(false), operatorId, new DispatchFaults())).toEqual({ kind: 'done', claimed: BATCH, started: 0, full: true });
  expect(await left(operatorId)).toBe(10);
});

it('tells the in-flight cap how many events it found pending and since when the oldest has waited', async () => {
  const operatorId = randomUUID();
  const arrived = Date.parse('2026-12-06T10:00:00Z');
  await admin(`${schema}.outbox_events`).insert(
    Array.from({ length: 25 }, (_, i) => ({
      id: `evt_${i}`,
      operator_id: operatorId,
      event: 'entity_event.session',
      payload: { n: i },
      occurred_at: new Date(arrived + i * 1000),
    })),
  );
  const noted: unknown[][] = [];
  const notePending = (...args: unknown[]) => {
    noted.push(args);
    return false;
  };
  const recording = { ...deps(false), inFlight: { ...inFlight(false), notePending } };
  await dispatchOperator(recording, operatorId, new DispatchFaults());
  expect(noted).toEqual([[operatorId, 25, arrived]]);
});
