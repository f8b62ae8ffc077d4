import { waitCandidatesSince } from '../../db/queries/runWaits';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

const HISTORY = 60_000;
/**
 * Rows per INSERT: each statement is its own short transaction. One long one would hold back every snapshot's xmin
 * meanwhile, and the xid cursors of suites running beside this one (the audience pass, the rollups) would stall.
 */
const CHUNK = 2_000;

/**
 * A wait's registration reads the entity's matching events since the wait began: that read is bounded by time, not
 * by how much the operator's outbox has ever held.
 */
describe('wait registration candidates', () => {
  let app: TestApp;
  let acme: DataClient;

  beforeAll(async () => {
    app = await startTestApp();
    acme = await dataClient(app);
    expect((await acme.call('/entities', { method: 'POST', body: { externalId: 'p-long', entityType: 'player', data: {} } })).status).toBe(201);
    const entity = await app.deps.db('entities').where({ operator_id: acme.operator.operatorId, external_id: 'p-long' }).first('id');
    // Hours of the player's dispatched thin rows, a second apart, in time order, as live ingest writes them.
    for (let first = 1; first <= HISTORY; first += CHUNK) {
      await app.deps.db.raw(
        `INSERT INTO outbox_events (id, operator_id, event, entity_id, source_event_id, occurred_at, dispatched_at)
         SELECT 'evt_old_' || i, ?, 'entity_event.transaction', ?, 'evt_old_' || i, now() - interval '1 day' + i * interval '1 second', now()
           FROM generate_series(?::int, ?::int) AS i`,
        [acme.operator.operatorId, entity.id, first, first + CHUNK - 1],
      );
    }
    // What autovacuum does soon after rows land: statistics, and the summaries of the filled block ranges.
    await app.deps.db.raw('VACUUM ANALYZE outbox_events');
  });
  afterAll(async () => {
    await app?.deps.db('outbox_events').where({ operator_id: acme.operator.operatorId }).delete();
    await app?.close();
  });

  it('finds the event written since the wait began, reading a few blocks of the outbox and not its history', async () => {
    const since = new Date(Date.now() - 1_000);
    const posted = await acme.call('/entities/p-long/events', {
      method: 'POST',
      body: { eventType: 'transaction', data: { type: 'deposit', amount: 10, currency: 'EUR' } },
    });
    expect(posted.status).toBe(201);
    const wait = { operatorId: acme.operator.operatorId, event: 'entity_event.transaction', externalId: 'p-long', since };

    const queries: Array<{ sql: string; bindings: unknown[] }> = [];
    const heard = (query: { sql: string; bindings: unknown[] }) => queries.push(query);
    app.deps.db.on('query', heard);
    const candidates = await waitCandidatesSince(app.deps.db, wait);
    app.deps.db.off('query', heard);
    expect(candidates).toHaveLength(1);

    const [read] = queries;
    const bindings: any[] = [];
    const sql = read!.sql.replace(/\$(\d+)/g, (_, n: string) => (bindings.push(read!.bindings[Number(n) - 1]), '?'));
    const { rows } = await app.deps.db.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, bindings);
    const plan = rows[0]['QUERY PLAN'][0].Plan;
    const blocks = plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
    const pages = Number((await app.deps.db.raw("SELECT relpages FROM pg_class WHERE relname = 'outbox_events'")).rows[0].relpages);
    expect(pages).toBeGreaterThan(500);
    expect(blocks).toBeLessThan(200);
  });
});
