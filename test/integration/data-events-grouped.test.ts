import { EventAppender } from '../../db/ingest/eventAppender';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { createFaultyDatabase, type FaultyDatabase } from '../helpers/faultyDatabase';

/**
 * Single events written together (db/ingest/eventAppender.ts), on a database of their own: a trigger there refuses
 * rows marked `fault`, with the PostgreSQL error the mark names, as a row's data or a broken database would.
 */
let faulty: FaultyDatabase;
let app: TestApp;
let a: DataClient;
let b: DataClient;

const PLAYERS = ['p-1', 'p-2', 'p-3'];
const deposit = (amount: number, fault?: string) => ({
  eventType: 'transaction',
  data: { type: 'deposit', amount, currency: 'EUR', status: 'completed', ...(fault ? { fault } : {}) },
});

beforeAll(async () => {
  faulty = await createFaultyDatabase();
  app = await startTestApp({ DATABASE_URL: faulty.url });
  [a, b] = await Promise.all([dataClient(app), dataClient(app)]);
  for (const externalId of PLAYERS) await a!.call('/entities', { body: { entityType: 'player', externalId, data: {} } });
  await b!.call('/entities', { body: { entityType: 'player', externalId: 'only-b', data: {} } });
  await faulty.db.raw(`
    CREATE FUNCTION refuse_marked_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.data->>'fault' IS NOT NULL THEN RAISE EXCEPTION 'refused by the test' USING ERRCODE = NEW.data->>'fault'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER refuse_marked_event BEFORE INSERT ON entity_events FOR EACH ROW EXECUTE FUNCTION refuse_marked_event();
  `);
});

afterAll(async () => {
  await app.close();
  await faulty.drop();
});

const eventsOf = (operatorId: string) => faulty.db('entity_events').where({ operator_id: operatorId }).select('id', 'data');
const outboxOf = (operatorId: string) => faulty.db('outbox_events').where({ operator_id: operatorId }).whereLike('event', 'entity_event.%');

describe('single events through the API, many at once', () => {
  it('answers each caller its own outcome, writes each event once under its own operator, and shares statements', async () => {
    const before = await eventsOf(a.operator.operatorId);
    const fromA = Array.from({ length: 60 }, (_, i) => a.call(`/entities/${PLAYERS[i % 3]}/events`, { body: deposit(100 + i) }));
    const strays = [a.call('/entities/only-b/events', { body: deposit(1) }), a.call('/entities/ghost/events', { body: deposit(2) })];
    const fromB = Array.from({ length: 10 }, (_, i) => b.call('/entities/only-b/events', { body: deposit(500 + i) }));
    const [answersA, answersStray, answersB] = await Promise.all([Promise.all(fromA), Promise.all(strays), Promise.all(fromB)]);

    for (const response of answersStray) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('ENTITY_NOT_FOUND');
    }
    expect(answersA.map((response) => response.status)).toEqual(Array(60).fill(201));
    expect(answersB.map((response) => response.status)).toEqual(Array(10).fill(201));

    const rowsA = (await eventsOf(a.operator.operatorId)).filter((row) => !before.some((old) => old.id === row.id));
    expect(rowsA.map((row) => row.id).sort()).toEqual(answersA.map((response) => response.body.data.id).sort());
    expect(rowsA.map((row) => row.data.amount).sort()).toEqual(Array.from({ length: 60 }, (_, i) => 100 + i).sort());
    const rowsB = await eventsOf(b.operator.operatorId);
    expect(rowsB.map((row) => row.id).sort()).toEqual(answersB.map((response) => response.body.data.id).sort());
    const outboxA = await outboxOf(a.operator.operatorId).whereIn(
      'source_event_id',
      rowsA.map((row) => row.id),
    );
    expect(outboxA).toHaveLength(60);

    const [{ transactions }] = await faulty
      .db('entity_events')
      .whereIn(
        'id',
        rowsA.map((row) => row.id),
      )
      .select(faulty.db.raw('count(DISTINCT xmin::text)::int AS transactions'));
    expect(transactions).toBeLessThan(60);
  });
});

describe('EventAppender', () => {
  const appender = (maxGroupSize = 1024 * 1024) => new EventAppender(app.deps.db, { lanes: 1, maxGroup: 500, maxGroupSize });
  const write = (externalId: string, amount: number, fault?: string) => {
    const { eventType, data } = deposit(amount, fault);
    return { externalId, eventType, data };
  };
  const settle = (outcomes: Array<Promise<unknown>>) => Promise.allSettled(outcomes);
  /** The transactions that wrote the events of these amounts: events written by one statement share one. */
  const transactionsOf = async (amounts: number[]) => {
    const { rows } = await faulty.db.raw<{ rows: Array<{ xid: string }> }>(
      "SELECT DISTINCT xmin::text AS xid FROM entity_events WHERE operator_id = ? AND (data->>'amount')::int = ANY(?)",
      [a.operator.operatorId, amounts],
    );
    return rows.length;
  };
  /** Lets this turn of the event loop end, so a statement the turn's appends started is on its way. */
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('writes the events of one turn together, and those arriving while it is in flight together after it', async () => {
    const events = appender();
    const operatorId = a.operator.operatorId;
    const turn = [7001, 7002, 7003].map((amount, i) => events.append(operatorId, write(PLAYERS[i]!, amount)));
    await nextTurn();
    const meanwhile = [7004, 7005].map((amount) => events.append(operatorId, write('p-1', amount)));
    expect(await Promise.all([...turn, ...meanwhile])).toEqual(Array(5).fill(expect.objectContaining({ ok: true })));
    expect(await transactionsOf([7001, 7002, 7003])).toBe(1);
    expect(await transactionsOf([7004, 7005])).toBe(1);
    expect(await transactionsOf([7001, 7004])).toBe(2);
    const alone = await events.append(operatorId, write('p-2', 7006));
    expect(alone).toMatchObject({ ok: true });
  });

  it('keeps a group within its size: large events of one turn go in statements of their own', async () => {
    const events = appender(200);
    const operatorId = a.operator.operatorId;
    const large = (amount: number) => ({ ...write('p-1', amount), data: { ...write('p-1', amount).data, note: 'x'.repeat(120) } });
    const outcomes = await Promise.all([6001, 6002, 6003].map((amount) => events.append(operatorId, large(amount))));
    expect(outcomes).toEqual(Array(3).fill(expect.objectContaining({ ok: true })));
    expect(await transactionsOf([6001, 6002, 6003])).toBe(3);
  });

  it("writes a group refused for one row's data again event by event: only that event's caller sees the error", async () => {
    const events = appender();
    const operatorId = a.operator.operatorId;
    const [good, refused, unknown, alsoGood] = await settle([
      events.append(operatorId, write('p-2', 9002)),
      events.append(operatorId, write('p-3', 9003, '22023')),
      events.append(operatorId, write('ghost', 9004)),
      events.append(operatorId, write('p-1', 9005)),
    ]);
    expect(good).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: '22023' } });
    expect(unknown).toMatchObject({ status: 'fulfilled', value: { ok: false, error: { code: 'ENTITY_NOT_FOUND' } } });
    expect(alsoGood).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    const amounts = (await eventsOf(operatorId)).map((row) => row.data.amount).filter((amount) => amount > 9000);
    expect(amounts.sort()).toEqual([9002, 9005]);
  });

  it('fails every caller of a group refused for anything else, and writes none of it again', async () => {
    const events = appender();
    const operatorId = a.operator.operatorId;
    const inFlight = events.append(operatorId, write('p-1', 8001));
    await nextTurn();
    const [first, good, refused, alsoGood, last] = await settle([
      inFlight,
      events.append(operatorId, write('p-2', 8002)),
      events.append(operatorId, write('p-3', 8003, 'P0001')),
      events.append(operatorId, write('p-1', 8004)),
      events.append(operatorId, write('p-1', 8005)),
    ]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    for (const outcome of [good, refused, alsoGood, last]) expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'P0001' } });
    const amounts = (await eventsOf(operatorId)).map((row) => row.data.amount).filter((amount) => amount > 8000 && amount < 9000);
    expect(amounts).toEqual([8001]);
    const next = await events.append(operatorId, write('p-2', 8006));
    expect(next).toMatchObject({ ok: true });
  });
});
