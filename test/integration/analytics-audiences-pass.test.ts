import { runAudiencePass } from '../../db/queries/audiencePass';
import { analytics, dayAgo, earlierTransactionsEnded, seedEvents, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

/**
 * The audience pass (issue 45, docs/analytics.md "Audiences"): players entering and leaving as their data and the
 * calendar change, one outbox event each, none again on a re-run; the export; audit; operator B kept out.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;

const deposit = (amount: number) => ({ eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR', status: 'completed' } });
const round = (bet: number, win: number) => ({ eventType: 'game_activity', data: { game_id: 'g-1', bet_amount: bet, win_amount: win, currency: 'EUR' } });

async function pass() {
  const total = { entered: 0, exited: 0 };
  await earlierTransactionsEnded(app.deps.db);
  for (;;) {
    const result = await runAudiencePass(app.deps.db);
    total.entered += result.entered;
    total.exited += result.exited;
    if (result.complete) return total;
  }
}
async function create(client: DataClient, name: string, definition: unknown): Promise<string> {
  const response = await analytics(app, client.key, '/audiences', { method: 'POST', body: { name, definition } });
  expect(response.status).toBe(201);
  return response.body.data.id;
}
async function members(client: DataClient, id: string): Promise<string[]> {
  const response = await analytics(app, client.key, `/audiences/${id}/members?limit=100`);
  expect(response.status).toBe(200);
  return response.body.data.members.map((member: { external_id: string }) => member.external_id).sort();
}
async function events(operatorId: string, audienceId: string): Promise<string[]> {
  const rows = await app.deps
    .db('outbox_events')
    .where({ operator_id: operatorId })
    .whereRaw(`payload->'data'->>'audienceId' = ?`, [audienceId])
    .orderBy('seq')
    .select('event', 'payload');
  return rows.map((row) => `${row.event} ${row.payload.data.externalId}`);
}
const send = async (client: DataClient, externalId: string, body: unknown) =>
  expect((await client.call(`/entities/${externalId}/events`, { body })).status).toBe(201);

const NEW_DEPOSITORS = {
  all: [
    { field: 'ftd_days_ago', op: 'lte', value: 6 },
    { field: 'deposit_count', op: 'eq', value: 1 },
  ],
};
const INACTIVE = { all: [{ field: 'last_activity_days_ago', op: 'gte', value: 14 }] };

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await seedPlayers(alice, [{ externalId: 'n1' }, { externalId: 'n2' }, { externalId: 'old' }, { externalId: '=cmd' }]);
  await seedEvents(app, alice, [
    { externalId: 'old', daysAgo: 13, ...round(10, 0) },
    { externalId: '=cmd', daysAgo: 2, ...deposit(500) },
  ]);
  await seedPlayers(bob, [{ externalId: 'b1' }]);
}, 60_000);
afterAll(() => app.close());

describe('the incremental pass', () => {
  let newDepositors: string;
  let inactive: string;

  beforeAll(async () => {
    newDepositors = await create(alice, 'New depositors, no second deposit', NEW_DEPOSITORS);
    inactive = await create(alice, 'Inactive 14 days', INACTIVE);
    await pass();
  });

  it('enters a player whose deposit makes them match, with one audience.entered, and not again on a re-run', async () => {
    expect(await members(alice, newDepositors)).toEqual(['=cmd']);
    await send(alice, 'n1', deposit(100));
    await pass();
    await pass();
    expect(await members(alice, newDepositors)).toEqual(['=cmd', 'n1']);
    expect(await events(alice.operator.operatorId, newDepositors)).toEqual(['audience.entered n1']);
    const [row] = await app.deps
      .db('outbox_events')
      .where({ operator_id: alice.operator.operatorId, event: 'audience.entered' })
      .select('payload', 'entity_id');
    expect(row.payload.data).toEqual({ audienceId: newDepositors, audienceName: 'New depositors, no second deposit', externalId: 'n1' });
    expect(row.payload.entity).toEqual({ id: row.entity_id, externalId: 'n1', entityType: 'player' });
  });

  it('a player leaving writes one audience.exited; entering again writes a new audience.entered', async () => {
    await send(alice, 'n1', deposit(100));
    await pass();
    expect(await members(alice, newDepositors)).toEqual(['=cmd']);
    expect(await events(alice.operator.operatorId, newDepositors)).toEqual(['audience.entered n1', 'audience.exited n1']);
    const redefined = {
      all: [
        { field: 'ftd_days_ago', op: 'lte', value: 6 },
        { field: 'deposit_count', op: 'lte', value: 2 },
      ],
    };
    const put = await analytics(app, alice.key, `/audiences/${newDepositors}`, { method: 'PUT', body: { name: 'New depositors', definition: redefined } });
    expect([put.status, put.body.data.version]).toEqual([200, 2]);
    await pass();
    expect(await members(alice, newDepositors)).toEqual(['=cmd', 'n1']);
    expect(await events(alice.operator.operatorId, newDepositors)).toEqual(['audience.entered n1', 'audience.exited n1', 'audience.entered n1']);
    const sizes = await analytics(app, alice.key, `/audiences/${newDepositors}/sizes`);
    expect(sizes.body.data.sizes).toEqual([{ day: dayAgo(0), size: 2, entered: 2, exited: 1 }]);
  });

  it('a new day alone moves a player across a time threshold (the band), with no new event of theirs', async () => {
    expect(await members(alice, inactive)).toEqual([]);
    // Nothing of the player changed lately (past the pass's overlap for entity writes)...
    await app.deps
      .db('entities')
      .where({ operator_id: alice.operator.operatorId, external_id: 'old' })
      .update({ updated_at: app.deps.db.raw(`now() - interval '1 hour'`) });
    // ...and one day later the round is 14 days old: only the band re-judges the player, once the audience was last judged yesterday.
    await app.deps.db.raw(
      `UPDATE entity_events SET occurred_at = occurred_at - interval '1 day' WHERE operator_id = ? AND entity_id = (SELECT id FROM entities WHERE operator_id = ? AND external_id = 'old')`,
      [alice.operator.operatorId, alice.operator.operatorId],
    );
    await pass();
    expect(await members(alice, inactive)).toEqual([]);
    await app.deps
      .db('audiences')
      .where({ id: inactive })
      .update({ evaluated_day: dayAgo(1) });
    await pass();
    expect(await members(alice, inactive)).toEqual(['old']);
    expect(await events(alice.operator.operatorId, inactive)).toEqual(['audience.entered old']);
    await send(alice, 'old', round(5, 0));
    await pass();
    expect(await members(alice, inactive)).toEqual([]);
    expect(await events(alice.operator.operatorId, inactive)).toEqual(['audience.entered old', 'audience.exited old']);
  });

  it('an erased member leaves without an event', async () => {
    expect((await alice.call('/entities/%3Dcmd', { method: 'DELETE' })).status).toBe(200);
    await pass();
    expect(await members(alice, newDepositors)).toEqual(['n1']);
    expect((await events(alice.operator.operatorId, newDepositors)).filter((line) => line.endsWith('=cmd'))).toEqual([]);
  });
});

describe('export, audit and isolation', () => {
  let id: string;
  beforeAll(async () => {
    await seedEvents(app, alice, [{ externalId: 'n2', daysAgo: 1, ...deposit(300) }]);
    await send(alice, 'n2', round(200, 50));
    id = await create(alice, 'Depositors', { all: [{ field: 'deposit_count', op: 'gte', value: 1 }] });
    await pass();
  });

  it('exports members with their figures as CSV, no personal data, formula-like ids defused', async () => {
    await seedPlayers(alice, [{ externalId: '+x', data: { email: 'x@example.com' } }]);
    await send(alice, '+x', deposit(50));
    await pass();
    const response = await analytics(app, alice.key, `/audiences/${id}/export`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('x-truncated')).toBe('false');
    const lines = response.text.trim().split('\n');
    expect(lines[0]).toBe('external_id,entered_at,ftd_day,deposit_count,last_activity_day,ggr,currency');
    const rows = lines.slice(1).map((line) => line.split(','));
    const byId = new Map(rows.map((row) => [row[0], row]));
    expect(byId.get('n2')!.slice(2)).toEqual([dayAgo(1), '1', dayAgo(0), '150', 'EUR']);
    expect(byId.get("'+x")!.slice(2)).toEqual([dayAgo(0), '1', dayAgo(0), '0', 'EUR']);
    expect(response.text).not.toContain('example.com');
  });

  it('records create, update and delete in the audit trail', async () => {
    const audited = await app.deps
      .db('audit_events')
      .where({ operator_id: alice.operator.operatorId })
      .whereLike('summary', '%aud_%')
      .select('action', 'summary');
    expect(audited.length).toBeGreaterThanOrEqual(4);
    expect(new Set(audited.map((row) => row.action))).toEqual(new Set(['settings.updated']));
  });

  it('operator B neither sees nor touches A’s audience, and B’s players never join it', async () => {
    await send(bob, 'b1', deposit(10));
    await pass();
    expect((await analytics(app, bob.key, '/audiences')).body.data.audiences).toEqual([]);
    for (const path of ['', '/members', '/sizes', '/export']) expect((await analytics(app, bob.key, `/audiences/${id}${path}`)).status).toBe(404);
    const body = { name: 'taken', definition: { all: [{ field: 'deposit_count', op: 'gte', value: 0 }] } };
    expect((await analytics(app, bob.key, `/audiences/${id}`, { method: 'PUT', body })).status).toBe(404);
    expect((await analytics(app, bob.key, `/audiences/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect(await members(alice, id)).toEqual(['+x', 'n1', 'n2']);
    expect((await analytics(app, alice.key, `/audiences/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await analytics(app, alice.key, `/audiences/${id}`)).status).toBe(404);
  });
});

describe('bounds and failures of the pass', () => {
  const setCountry = (externalIds: string[]) =>
    app.deps
      .db('entities')
      .where({ operator_id: alice.operator.operatorId })
      .whereIn('external_id', externalIds)
      .update({ data: app.deps.db.raw(`data || '{"country": "MT"}'::jsonb`), updated_at: app.deps.db.fn.now() });

  it('more changed players than the pass holds: the operator’s audiences are judged whole, the entries still events', async () => {
    await seedPlayers(alice, [{ externalId: 'm1' }, { externalId: 'm2' }]);
    const maltese = await create(alice, 'Malta', { all: [{ field: 'country', op: 'in', value: ['MT'] }] });
    await pass();
    expect(await members(alice, maltese)).toEqual([]);
    await setCountry(['m1', 'm2']);
    // Two changed players past a bound of one: none is read one by one, the whole audience is judged.
    await earlierTransactionsEnded(app.deps.db);
    for (;;) if ((await runAudiencePass(app.deps.db, { maxCandidates: 1 })).complete) break;
    expect(await members(alice, maltese)).toEqual(['m1', 'm2']);
    expect((await events(alice.operator.operatorId, maltese)).sort()).toEqual(['audience.entered m1', 'audience.entered m2']);
  });

  it('an audience whose evaluation fails is judged whole on the next pass; the others go on meanwhile', async () => {
    await seedPlayers(alice, [{ externalId: 'f1' }]);
    const broken = await create(alice, 'Broken later', { all: [{ field: 'deposit_count', op: 'gte', value: 3 }] });
    const healthy = await create(alice, 'Three deposits', { all: [{ field: 'deposit_count', op: 'gte', value: 3 }] });
    await pass();
    const [{ definition }] = await app.deps.db('audiences').where({ id: broken }).select('definition');
    // A definition the pass cannot read (written past the API's validation) makes its evaluation throw.
    await app.deps
      .db('audiences')
      .where({ id: broken })
      .update({ definition: JSON.stringify({ all: [{ field: 'nope' }] }) });
    for (let i = 0; i < 3; i++) await send(alice, 'f1', deposit(10));

    await earlierTransactionsEnded(app.deps.db);
    const failing = await runAudiencePass(app.deps.db);
    expect(failing.failed).toBe(1);
    expect(await members(alice, healthy)).toEqual(['f1']);
    const [row] = await app.deps.db('audiences').where({ id: broken }).select('version', 'evaluated_version');
    expect(row.evaluated_version).toBe(row.version - 1);

    await app.deps
      .db('audiences')
      .where({ id: broken })
      .update({ definition: JSON.stringify(definition) });
    expect((await runAudiencePass(app.deps.db)).failed).toBe(0);
    expect(await members(alice, broken)).toEqual(['f1']);
    expect(await events(alice.operator.operatorId, broken)).toEqual(['audience.entered f1']);
  });
});
