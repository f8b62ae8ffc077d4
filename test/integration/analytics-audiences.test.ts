import { runAudiencePass } from '../../db/queries/audiencePass';
import { analytics, dayAgo, seedEvents, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';

/**
 * Audiences (issue 45, docs/analytics.md "Audiences") over a designed history of operator A (reporting EUR), days before today:
 * - p1 (MT, tier gold): deposit 1 000 EUR 5 days ago (its FTD, no second), a round 500 / 100 3 days ago (GGR 400).
 * - p2 (DE, tier silver): deposits 200 EUR 30 days ago and 300 EUR 2 days ago.
 * - p3 (tier gold): a failed deposit and a round 100 / 0 20 days ago: no FTD, last active 20 days ago.
 * - p4: registered today, nothing else. p5: deposit 700 USD yesterday (its FTD). p6: a round 10 / 0 13 days ago.
 * - p7 (tier gold, round 30 days ago) is erased: never a member. Operator B: a gold player inactive 40 days.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;

const tx = (type: string, amount: number, extra: Record<string, unknown> = {}) => ({
  eventType: 'transaction',
  data: { type, amount, currency: 'EUR', status: 'completed', ...extra },
});
const round = (bet: number, win: number) => ({ eventType: 'game_activity', data: { game_id: 'g-1', bet_amount: bet, win_amount: win, currency: 'EUR' } });
const setState = (client: DataClient, externalId: string, value: string) =>
  client.call(`/entities/${externalId}/state/loyalty_tier`, { method: 'PUT', body: { value } });

/** Passes until the cursor reaches the present (other files' events may be ahead of it). */
async function pass() {
  const total = { entered: 0, exited: 0 };
  for (;;) {
    const result = await runAudiencePass(app.deps.db);
    total.entered += result.entered;
    total.exited += result.exited;
    if (result.complete) return total;
  }
}
const create = (client: DataClient, name: string, definition: unknown) =>
  analytics(app, client.key, '/audiences', { method: 'POST', body: { name, definition } });
async function members(client: DataClient, id: string): Promise<string[]> {
  const response = await analytics(app, client.key, `/audiences/${id}/members?limit=100`);
  expect(response.status).toBe(200);
  return response.body.data.members.map((member: { external_id: string }) => member.external_id).sort();
}
const outbox = (operatorId: string, audienceId: string) =>
  app.deps.db('outbox_events').where({ operator_id: operatorId }).whereRaw(`payload->'data'->>'audienceId' = ?`, [audienceId]).orderBy('seq');

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await seedPlayers(alice, [
    { externalId: 'p1', data: { country: 'mt' } },
    { externalId: 'p2', data: { country: 'DE' } },
    { externalId: 'p3' },
    { externalId: 'p4' },
    { externalId: 'p5' },
    { externalId: 'p6' },
    { externalId: 'p7' },
  ]);
  await seedEvents(app, alice, [
    { externalId: 'p1', daysAgo: 5, ...tx('deposit', 1_000) },
    { externalId: 'p1', daysAgo: 3, ...round(500, 100) },
    { externalId: 'p2', daysAgo: 30, ...tx('deposit', 200) },
    { externalId: 'p2', daysAgo: 2, ...tx('deposit', 300) },
    { externalId: 'p3', daysAgo: 20, ...tx('deposit', 400, { status: 'failed' }) },
    { externalId: 'p3', daysAgo: 20, ...round(100, 0) },
    { externalId: 'p5', daysAgo: 1, ...tx('deposit', 700, { currency: 'USD' }) },
    { externalId: 'p6', daysAgo: 13, ...round(10, 0) },
    { externalId: 'p7', daysAgo: 30, ...round(10, 0) },
  ]);
  for (const [id, tier] of [
    ['p1', 'gold'],
    ['p2', 'silver'],
    ['p3', 'gold'],
    ['p7', 'gold'],
  ] as const)
    expect((await setState(alice, id, tier)).status).toBe(200);
  expect((await alice.call('/entities/p7', { method: 'DELETE' })).status).toBe(200);
  await seedPlayers(bob, [{ externalId: 'b1' }]);
  await seedEvents(app, bob, [{ externalId: 'b1', daysAgo: 40, ...round(10, 0) }]);
  expect((await setState(bob, 'b1', 'gold')).status).toBe(200);
}, 120_000);
afterAll(() => app.close());

describe('definition', () => {
  it.each([
    [{ all: [{ field: 'deposit_count', op: 'eq', value: -1 }] }, 'definition.all.0.value'],
    [{ all: [{ field: 'birthday', op: 'eq', value: 1 }] }, 'definition.all.0.field'],
    [{ any: [{ field: 'ggr', op: 'gt', value: 0 }] }, 'definition.any.0.currency'],
    [{ all: [{ field: 'state', key: 'loyalty_tier', op: 'gt', value: 'gold' }] }, 'definition.all.0.value'],
    [{ all: [{ field: 'country', op: 'in', value: ['Malta'] }] }, 'definition.all.0.value.0'],
    [{ all: Array.from({ length: 21 }, () => ({ field: 'ftd_days_ago', op: 'lte', value: 7 })) }, 'definition.all'],
    [{ all: [{ field: 'ftd_days_ago', op: 'lte', value: 7 }], any: [{ field: 'ftd_days_ago', op: 'lte', value: 7 }] }, 'definition.all'],
    [{ all: [{ field: 'ftd_days_ago', op: 'lte', value: 7, sql: '1=1' }] }, 'definition.all.0'],
  ])('%j is 400 naming %s', async (definition, field) => {
    const response = await create(alice, 'bad', definition);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(field.endsWith('currency') ? 'MISSING_FIELDS' : 'VALIDATION_FAILED');
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
  });

  it('caps audiences per operator at 50 with 409 AUDIENCE_LIMIT_REACHED', async () => {
    const carol = await dataClient(app);
    await app.deps.db('audiences').insert(
      Array.from({ length: 49 }, (_, i) => ({
        id: `aud_cap_${carol.operator.operatorId}_${i}`,
        operator_id: carol.operator.operatorId,
        name: `a${i}`,
        definition: JSON.stringify({ all: [{ field: 'ftd_days_ago', op: 'lte', value: 1 }] }),
        created_by: 'key:test',
      })),
    );
    const definition = { all: [{ field: 'ftd_days_ago', op: 'lte', value: 1 }] };
    expect((await create(carol, 'fiftieth', definition)).status).toBe(201);
    const refused = await create(carol, 'fifty-first', definition);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'AUDIENCE_LIMIT_REACHED']);
    await app.deps.db('audiences').where({ operator_id: carol.operator.operatorId }).delete();
  });
});

describe('membership on the designed history', () => {
  const cases: Array<[string, unknown, string[]]> = [
    ['FTD within 6 days', { all: [{ field: 'ftd_days_ago', op: 'lte', value: 6 }] }, ['p1', 'p5']],
    ['one deposit ever', { all: [{ field: 'deposit_count', op: 'eq', value: 1 }] }, ['p1', 'p5']],
    ['a deposit in 7 days', { all: [{ field: 'deposit_count', op: 'gte', value: 1, days: 7 }] }, ['p1', 'p2', 'p5']],
    ['deposited 1 000 EUR', { all: [{ field: 'deposit_amount', op: 'gte', value: 1_000, currency: 'EUR' }] }, ['p1']],
    ['EUR deposits in 3 days', { all: [{ field: 'deposit_amount', op: 'gt', value: 0, currency: 'EUR', days: 3 }] }, ['p2']],
    ['inactive 14 days', { all: [{ field: 'last_activity_days_ago', op: 'gte', value: 14 }] }, ['p3']],
    ['GGR above 0', { all: [{ field: 'ggr', op: 'gt', value: 0, currency: 'EUR' }] }, ['p1', 'p3', 'p6']],
    ['gold', { all: [{ field: 'state', key: 'loyalty_tier', op: 'eq', value: 'gold' }] }, ['p1', 'p3']],
    ['not gold', { all: [{ field: 'state', key: 'loyalty_tier', op: 'ne', value: 'gold' }] }, ['p2', 'p4', 'p5', 'p6']],
    ['silver or bronze', { all: [{ field: 'state', key: 'loyalty_tier', op: 'in', value: ['silver', 'bronze'] }] }, ['p2']],
    ['Malta', { all: [{ field: 'country', op: 'in', value: ['MT'] }] }, ['p1']],
    [
      'FTD in 7 days, no second deposit',
      {
        all: [
          { field: 'ftd_days_ago', op: 'lte', value: 6 },
          { field: 'deposit_count', op: 'eq', value: 1 },
        ],
      },
      ['p1', 'p5'],
    ],
    [
      'gold, inactive 14 days',
      {
        all: [
          { field: 'state', key: 'loyalty_tier', op: 'eq', value: 'gold' },
          { field: 'last_activity_days_ago', op: 'gte', value: 14 },
        ],
      },
      ['p3'],
    ],
    [
      'Germany or inactive',
      {
        any: [
          { field: 'country', op: 'in', value: ['DE'] },
          { field: 'last_activity_days_ago', op: 'gte', value: 14 },
        ],
      },
      ['p2', 'p3'],
    ],
  ];
  const ids = new Map<string, string>();

  beforeAll(async () => {
    for (const [name, definition] of cases) {
      const response = await create(alice, name, definition);
      expect(response.status).toBe(201);
      ids.set(name, response.body.data.id);
    }
    await pass();
  }, 60_000);

  it.each(cases.map(([name, , expected]) => [name, expected]))('%s: %j', async (name, expected) => {
    expect(await members(alice, ids.get(name as string)!)).toEqual(expected);
  });

  it('a first evaluation writes no events; its size and size history are recorded', async () => {
    const id = ids.get('a deposit in 7 days')!;
    expect(await outbox(alice.operator.operatorId, id)).toEqual([]);
    const read = await analytics(app, alice.key, `/audiences/${id}`);
    expect([read.body.data.size, read.body.data.version]).toEqual([3, 1]);
    const sizes = await analytics(app, alice.key, `/audiences/${id}/sizes?range=7d`);
    expect(sizes.body.data.sizes).toEqual([{ day: dayAgo(0), size: 3, entered: 0, exited: 0 }]);
  });
});
