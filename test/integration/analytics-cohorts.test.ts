import { dayAgo as day, analytics, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { isoDay } from '../../core/analyticsParams';
import { NgrDefinitionSchema } from '../../core/ngrDefinition';
import { rawCohortFigures, type CohortGrain } from '../../db/queries/analyticsCohorts';
import { viewCohortFigures } from '../../db/queries/analyticsCohortsView';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';

/**
 * FTD cohorts (issue 45, `GET /cohorts`), every number computed by hand. Events carry their own `data.timestamp`, as
 * an import does, so they land on their day whenever they arrive. EUR players:
 * - c1 (jurisdiction `mt`): FTD 2026-03-02 (1000); a round 03-03 (300/100, D1); a bonus 03-05 (40) and a failed one
 *   03-06 (99: no cost); a deposit 03-09 (D7); a round 04-01 (100/0, D30); a round two days ago (50/50): not churned.
 * - c2: a round 03-10 08:00 and a bonus at 07:00 (25) before its FTD (bonus play: neither in GGR nor bonus cost); FTD
 *   03-10 (500); a round 03-11 (100/300, D1); a bonus 03-12 (30: no activity); nothing since: churned.
 * - c3: a failed deposit 03-05 (no FTD, no activity), FTD 03-20 (200); nothing since: churned.
 * - c5: FTD 04-05 (700); a failed deposit and a bonus (20) 04-06 (neither is activity: no D1); a round 04-12 (100/100,
 *   D7): churned.
 * - c6: FTD 02-20, before the range, active in March: in no cohort of the range.
 * - c4: FTD 03-15 in USD (800), then a EUR deposit 03-16: in the USD cohort, never in EUR's.
 * - c7: FTD 03-03 (400), then erased: its events are redacted, it is in no cohort.
 * - c8: FTD three days ago (100), a round two days ago: D1 has come, D7 and D30 have not.
 * Operator B: b1, FTD 03-02 (9 999).
 * Alice's NGR definition (version 1): MT taxed 20 %, everyone else 10 %, a 5 % fee on GGR. March: MT (c1) GGR 300,
 * bonus 40 → tax 52; the rest GGR −200, bonus 30 → no tax; fee 5 % of 100 = 5; NGR 100 − 70 − 52 − 5 = −27. April: GGR
 * 0, bonus 20 → NGR −20.
 * A rollup pass runs before the tests, so the API answers from the rollups; the raw path is checked to agree.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;

const at = (date: string, time = '12:00') => `${date}T${time}:00Z`;
const deposit = (date: string, amount: number, extra: Record<string, unknown> = {}) => ({
  eventType: 'transaction',
  data: { type: 'deposit', amount, currency: 'EUR', status: 'completed', provider: 'stripe', timestamp: at(date), ...extra },
});
const round = (date: string, bet: number, win: number, time?: string) => ({
  eventType: 'game_activity',
  data: { game_id: 'g-1', game_name: 'Book', bet_amount: bet, win_amount: win, currency: 'EUR', timestamp: at(date, time) },
});
const get = (path: string, client: DataClient = alice) => analytics(app, client.key, path);
const bonus = (date: string, amount: number, extra: Record<string, unknown> = {}) => ({
  eventType: 'transaction',
  data: { type: 'bonus', amount, currency: 'EUR', status: 'completed', timestamp: at(date), ...extra },
});
const DEFINITION = { taxes: [{ jurisdiction: 'MT', rate: 0.2 }], defaultTaxRate: 0.1, otherDeductions: [{ name: 'fees', rate: 0.05 }] };
const kept = (matured: number, retained: number, rate: number | null) => ({ matured, retained, rate });

async function send(
  client: DataClient,
  history: Record<string, Array<{ eventType: string; data: Record<string, unknown> }>>,
  players: Record<string, Record<string, unknown>> = {},
): Promise<void> {
  await seedPlayers(
    client,
    Object.keys(history).map((externalId) => ({ externalId, data: players[externalId] ?? {} })),
  );
  for (const [externalId, events] of Object.entries(history))
    for (const body of events) {
      const response = await client.call(`/entities/${externalId}/events`, { body });
      if (response.status !== 201) throw new Error(`event failed: ${response.text}`);
    }
}

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await send(
    alice,
    {
      c1: [
        deposit('2026-03-02', 1000),
        round('2026-03-03', 300, 100),
        bonus('2026-03-05', 40),
        bonus('2026-03-06', 99, { status: 'failed' }),
        deposit('2026-03-09', 50),
        round('2026-04-01', 100, 0),
        round(day(2), 50, 50),
      ],
      c2: [
        bonus('2026-03-10', 25, { timestamp: at('2026-03-10', '07:00') }),
        round('2026-03-10', 1000, 0, '08:00'),
        deposit('2026-03-10', 500),
        round('2026-03-11', 100, 300),
        bonus('2026-03-12', 30),
      ],
      c3: [deposit('2026-03-05', 900, { status: 'failed' }), deposit('2026-03-20', 200)],
      c5: [deposit('2026-04-05', 700), deposit('2026-04-06', 60, { status: 'failed' }), bonus('2026-04-06', 20), round('2026-04-12', 100, 100)],
      c6: [deposit('2026-02-20', 300), round('2026-03-04', 500, 0)],
      c4: [deposit('2026-03-15', 800, { currency: 'USD' }), deposit('2026-03-16', 70)],
      c7: [deposit('2026-03-03', 400), round('2026-03-04', 10, 0)],
      c8: [deposit(day(3), 100), round(day(2), 20, 5)],
    },
    { c1: { jurisdiction: 'mt' } },
  );
  expect((await analytics(app, alice.key, '/ngr-definition', { method: 'PUT', body: DEFINITION })).status).toBe(200);
  expect((await alice.call('/entities/c7', { method: 'DELETE' })).status).toBe(200);
  await send(bob, { b1: [deposit('2026-03-02', 9_999)] });
  await refreshAnalyticsViews(app.deps.db);
}, 120_000);
afterAll(() => app.close());

describe('protection and errors', () => {
  it('401 without credentials', async () => {
    const missing = await analytics(app, undefined, '/cohorts');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing API key or session token' } });
  });

  it.each([
    ['grain=year', 'grain'],
    ['churn_days=0', 'churn_days'],
    ['churn_days=366', 'churn_days'],
    ['range=2024-01-01:2026-01-02', 'range'],
    ['range=soon', 'range'],
    ['currency=eur', 'currency'],
  ])('%s is 400 INVALID_PARAM naming %s', async (query, field) => {
    const response = await get(`/cohorts?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_PARAM');
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
  });
});

describe('cohorts computed by hand', () => {
  it('by month: players, FTD amount, D1/D7/D30 retention, GGR to date and churn', async () => {
    const response = await get('/cohorts?range=2026-03-01:2026-04-30&currency=EUR');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        currency: 'EUR',
        range: { start: '2026-03-01', end: '2026-04-30' },
        grain: 'month',
        as_of: day(0),
        churn_days: 30,
        refreshed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        ngr_definition_version: 1,
        cohorts: [
          {
            cohort: '2026-03-01',
            players: 3,
            ftd_amount: 1700,
            retention: { d1: kept(3, 2, 0.6667), d7: kept(3, 1, 0.3333), d30: kept(3, 1, 0.3333) },
            ggr: 100,
            ggr_per_player: 33.33,
            bonus_cost: 70,
            ngr: -27,
            ngr_per_player: -9,
            churned_players: 2,
          },
          {
            cohort: '2026-04-01',
            players: 1,
            ftd_amount: 700,
            retention: { d1: kept(1, 0, 0), d7: kept(1, 1, 1), d30: kept(1, 0, 0) },
            ggr: 0,
            ggr_per_player: 0,
            bonus_cost: 20,
            ngr: -20,
            ngr_per_player: -20,
            churned_players: 1,
          },
        ],
      },
    });
  });

  it('by week: Monday buckets, the empty one included with null rates', async () => {
    const response = await get('/cohorts?range=2026-03-01:2026-03-22&grain=week&currency=EUR');
    expect(response.status).toBe(200);
    const rows = response.body.data.cohorts.map((row: { cohort: string; players: number; ftd_amount: number }) => [row.cohort, row.players, row.ftd_amount]);
    expect(rows).toEqual([
      ['2026-02-23', 0, 0],
      ['2026-03-02', 1, 1000],
      ['2026-03-09', 1, 500],
      ['2026-03-16', 1, 200],
    ]);
    expect(response.body.data.cohorts[0]).toMatchObject({ retention: { d1: kept(0, 0, null) }, ggr_per_player: 0, churned_players: 0 });
  });

  it('a churn window of 365 days churns no one active within it', async () => {
    const response = await get('/cohorts?range=2026-03-01:2026-04-30&currency=EUR&churn_days=365');
    expect(response.body.data.cohorts.map((row: { churned_players: number }) => row.churned_players)).toEqual([0, 0]);
  });

  it("the operator's churnDays setting is the default churn window; a request's churn_days still wins; operator B keeps 30", async () => {
    expect((await alice.call('/settings', { method: 'PUT', body: { churnDays: 365 } })).status).toBe(200);
    try {
      const settled = await get('/cohorts?range=2026-03-01:2026-04-30&currency=EUR');
      expect(settled.body.data.churn_days).toBe(365);
      expect(settled.body.data.cohorts.map((row: { churned_players: number }) => row.churned_players)).toEqual([0, 0]);
      const asked = await get('/cohorts?range=2026-03-01:2026-04-30&currency=EUR&churn_days=30');
      expect([asked.body.data.churn_days, asked.body.data.cohorts.map((row: { churned_players: number }) => row.churned_players)]).toEqual([30, [2, 1]]);
      expect((await get('/cohorts?range=2026-03-01:2026-04-30', bob)).body.data.churn_days).toBe(30);
    } finally {
      expect((await alice.call('/settings', { method: 'PUT', body: { churnDays: 30 } })).status).toBe(200);
    }
  });

  it('USD is its own cohort: the player whose first deposit was in USD, with no USD activity since', async () => {
    const response = await get('/cohorts?range=2026-03-01:2026-03-31&currency=USD');
    expect(response.body.data.cohorts).toEqual([
      {
        cohort: '2026-03-01',
        players: 1,
        ftd_amount: 800,
        retention: { d1: kept(1, 0, 0), d7: kept(1, 0, 0), d30: kept(1, 0, 0) },
        ggr: 0,
        ggr_per_player: 0,
        bonus_cost: 0,
        ngr: 0,
        ngr_per_player: 0,
        churned_players: 1,
      },
    ]);
  });

  it('a cohort still maturing: D1 counts, D7 and D30 have not come (null, not 0)', async () => {
    const response = await get(`/cohorts?range=${day(3)}:${day(3)}&currency=EUR`);
    expect(response.body.data.cohorts).toEqual([
      expect.objectContaining({
        players: 1,
        ftd_amount: 100,
        retention: { d1: kept(1, 1, 1), d7: kept(0, 0, null), d30: kept(0, 0, null) },
        ggr: 15,
        ngr: 12.75,
        churned_players: 0,
      }),
    ]);
  });

  it('operator B sees only its own player; the erased player and its id appear nowhere', async () => {
    const mine = await get('/cohorts?range=2026-03-01:2026-03-31&currency=EUR', bob);
    expect(mine.body.data.cohorts).toEqual([expect.objectContaining({ cohort: '2026-03-01', players: 1, ftd_amount: 9_999, ngr: 0 })]);
    expect(mine.body.data.ngr_definition_version).toBeNull();
    const alices = await get('/cohorts?range=2026-03-01:2026-03-31&currency=EUR');
    expect(JSON.stringify(alices.body)).not.toMatch(/c7|ent_/);
  });
});

describe('both paths', () => {
  it.each([
    ['2026-03-01', '2026-04-30', 'month', 'EUR', 30],
    ['2026-03-01', '2026-03-22', 'week', 'EUR', 30],
    ['2026-03-01', '2026-04-30', 'month', 'EUR', 365],
    ['2026-03-01', '2026-03-31', 'month', 'USD', 30],
    [day(3), day(3), 'month', 'EUR', 30],
  ] as Array<[string, string, CohortGrain, string, number]>)(
    '%s–%s by %s in %s (churn %i): the raw tables and the rollups agree',
    async (start, end, grain, currency, churnDays) => {
      const scope = { operatorId: alice.operator.operatorId, currency, reportingCurrency: 'EUR' };
      const query = { range: { start, end }, grain, asOf: isoDay(new Date()), churnDays, ngr: NgrDefinitionSchema.parse(DEFINITION) };
      const rollups = await viewCohortFigures(app.deps.db, scope, query);
      expect(rollups.some((row) => row.players > 0)).toBe(true);
      expect(await rawCohortFigures(app.deps.db, scope, query)).toEqual(rollups);
    },
  );
});
