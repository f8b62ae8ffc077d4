import { analytics, readAfterRolledBack } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { splitFigures, type SplitDimension } from '../../db/queries/analyticsSplits';
import type { Db } from '../../db/knex';
import { down as dropRegionRollups, up as createRegionRollups } from '../../db/migrations/20261219090000_create_region_rollups';
import { up as addRegionFtds } from '../../db/migrations/20261222090000_add_region_ftds';

/**
 * Splits (issue 45, `GET /splits`), computed by hand over June 2026, answered from the rollups (a pass has caught up)
 * and equal to the raw path's rows for every request:
 * - a1 (country `mt`, jurisdiction MT): a EUR deposit of 1 000 (its FTD), a round 500 / 100.
 * - a2 (DE): a EUR deposit of 200 in May (its FTD), then 300 in June, a withdrawal of 100, a round 100 / 300.
 * - a3 (country `Atlantis`, not a code): a EUR round 50 / 0 and a USD deposit of 700 (its FTD).
 * - a4 (no country): a failed EUR deposit of 400 (no activity), a round 10 / 0 in GBP.
 * Operator B: a player in MT with a EUR deposit of 9 999.
 * Then a1 moves to DE and jurisdiction GB, a3 is erased, and B's player sends an earlier deposit (30 May) that
 * becomes its FTD.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;

const at = (date: string) => `${date}T12:00:00Z`;
const tx = (date: string, type: string, amount: number, extra: Record<string, unknown> = {}) => ({
  eventType: 'transaction',
  data: { type, amount, currency: 'EUR', status: 'completed', timestamp: at(date), ...extra },
});
const round = (date: string, bet: number, win: number, currency = 'EUR') => ({
  eventType: 'game_activity',
  data: { game_id: 'g-1', bet_amount: bet, win_amount: win, currency, timestamp: at(date) },
});
const row = (key: string, currency: string, active: number, depositing: number, deposits: number, withdrawals: number, ggr: number, ftd: number) => ({
  key,
  currency,
  active_players: active,
  depositing_players: depositing,
  deposits,
  withdrawals,
  ggr,
  ftd_count: ftd,
});

async function send(
  client: DataClient,
  players: Record<string, { data: Record<string, unknown>; events: Array<{ eventType: string; data: Record<string, unknown> }> }>,
) {
  for (const [externalId, player] of Object.entries(players)) {
    expect((await client.call('/entities', { body: { entityType: 'player', externalId, data: player.data } })).status).toBe(201);
    for (const body of player.events) {
      const response = await client.call(`/entities/${externalId}/events`, { body });
      if (response.status !== 201) throw new Error(`event refused: ${response.text}`);
    }
  }
}

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await send(alice, {
    a1: { data: { country: 'mt', jurisdiction: 'MT' }, events: [tx('2026-06-02', 'deposit', 1_000), round('2026-06-03', 500, 100)] },
    a2: {
      data: { country: 'DE' },
      events: [tx('2026-05-20', 'deposit', 200), tx('2026-06-04', 'deposit', 300), tx('2026-06-05', 'withdrawal', 100), round('2026-06-06', 100, 300)],
    },
    a3: { data: { country: 'Atlantis' }, events: [round('2026-06-07', 50, 0), tx('2026-06-08', 'deposit', 700, { currency: 'USD' })] },
    a4: { data: {}, events: [tx('2026-06-09', 'deposit', 400, { status: 'failed' }), round('2026-06-10', 10, 0, 'GBP')] },
  });
  await send(bob, { b1: { data: { country: 'MT' }, events: [tx('2026-06-02', 'deposit', 9_999)] } });
  await refreshAnalyticsViews(app.deps.db);
}, 60_000);
afterAll(() => app.close());

async function get(query: string, client: DataClient = alice) {
  const response = await analytics(app, client.key, `/splits?range=2026-06-01:2026-06-30&${query}`);
  if (response.status === 200) {
    const scope = { operatorId: client.operator.operatorId, currency: new URLSearchParams(query).get('currency') ?? 'EUR', reportingCurrency: 'EUR' };
    expect(response.body.data.refreshed_at).toEqual(expect.any(String));
    expect(await splitFigures(app.deps.db, scope, response.body.data.range, response.body.data.by as SplitDimension)).toEqual(response.body.data.rows);
  }
  return response;
}

describe('protection and errors', () => {
  it('401 without credentials', async () => {
    expect((await analytics(app, undefined, '/splits?by=country')).status).toBe(401);
  });

  it.each([
    ['', 'by'],
    ['by=city', 'by'],
    ['by=country&currency=eur', 'currency'],
  ])('%j is 400 naming %s', async (query, field) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
  });
});

describe('figures computed by hand', () => {
  it('by country in EUR: codes upper-cased, anything else is other; most GGR first', async () => {
    const response = await get('by=country&currency=EUR');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        by: 'country',
        range: { start: '2026-06-01', end: '2026-06-30' },
        refreshed_at: expect.any(String),
        rows: [row('MT', 'EUR', 1, 1, 1_000, 0, 400, 1), row('other', 'EUR', 1, 0, 0, 0, 50, 0), row('DE', 'EUR', 1, 1, 300, 100, -200, 0)],
      },
    });
  });

  it('by jurisdiction in EUR', async () => {
    const response = await get('by=jurisdiction&currency=EUR');
    expect(response.body.data.rows).toEqual([row('MT', 'EUR', 1, 1, 1_000, 0, 400, 1), row('other', 'EUR', 2, 1, 300, 100, -150, 0)]);
  });

  it('by currency: each its own row, never summed', async () => {
    const response = await get('by=currency');
    expect(response.body.data.rows).toEqual([
      row('EUR', 'EUR', 3, 2, 1_300, 100, 250, 1),
      row('GBP', 'GBP', 1, 0, 0, 0, 10, 0),
      row('USD', 'USD', 1, 1, 700, 0, 0, 1),
    ]);
  });

  it('operator B sees only its own player', async () => {
    const response = await get('by=country&currency=EUR', bob);
    expect(response.body.data.rows).toEqual([row('MT', 'EUR', 1, 1, 9_999, 0, 0, 1)]);
  });
});

describe('a player who moves and one who is erased', () => {
  beforeAll(async () => {
    expect((await alice.call('/entities', { body: { entityType: 'player', externalId: 'a1', data: { country: 'de', jurisdiction: 'gb' } } })).status).toBe(200);
    expect((await alice.call('/entities/a3', { method: 'DELETE' })).status).toBe(200);
    expect((await bob.call('/entities/b1/events', { body: tx('2026-05-30', 'deposit', 5) })).status).toBe(201);
    await refreshAnalyticsViews(app.deps.db);
  });

  it('by country: the mover counts with their whole history under DE; the erased player and the group left with nothing are gone', async () => {
    expect((await get('by=country&currency=EUR')).body.data.rows).toEqual([row('DE', 'EUR', 2, 2, 1_300, 100, 200, 1)]);
  });

  it('by jurisdiction and by currency', async () => {
    expect((await get('by=jurisdiction&currency=EUR')).body.data.rows).toEqual([
      row('GB', 'EUR', 1, 1, 1_000, 0, 400, 1),
      row('other', 'EUR', 1, 1, 300, 100, -200, 0),
    ]);
    expect((await get('by=currency')).body.data.rows).toEqual([row('EUR', 'EUR', 2, 2, 1_300, 100, 200, 1), row('GBP', 'GBP', 1, 0, 0, 0, 10, 0)]);
  });

  it("operator B's player whose earlier deposit arrived late has its FTD in May, none in June", async () => {
    expect((await get('by=country&currency=EUR', bob)).body.data.rows).toEqual([row('MT', 'EUR', 1, 1, 9_999, 0, 0, 0)]);
    expect((await get('by=currency', bob)).body.data.rows).toEqual([row('EUR', 'EUR', 1, 1, 9_999, 0, 0, 0)]);
  });

  it('the migrations creating the region rollups build the same rows from the player-days and first deposits (rolled back)', async () => {
    const rows = async (db: Db) =>
      JSON.stringify([
        await db('analytics_region_days')
          .where({ operator_id: alice.operator.operatorId })
          .whereRaw('(ggr <> 0 OR deposits <> 0 OR withdrawals <> 0 OR ftds <> 0)')
          .orderBy(['dimension', 'currency', 'day', 'key'])
          .select(
            'dimension',
            'currency',
            'key',
            db.raw('day::text'),
            db.raw('ggr::float8'),
            db.raw('deposits::float8'),
            db.raw('withdrawals::float8'),
            'ftds',
          ),
        await db('analytics_region_gaps')
          .where({ operator_id: alice.operator.operatorId })
          .where('players', '<>', 0)
          .orderBy(['dimension', 'series', 'day', 'prev_day', 'key'])
          .select('dimension', 'series', 'key', db.raw('day::text'), db.raw('prev_day::text'), 'players'),
        await db('analytics_player_gaps')
          .where({ operator_id: alice.operator.operatorId })
          .whereRaw(`(series LIKE 'active-in-currency:%' OR series LIKE 'deposited-in-currency:%') AND players <> 0`)
          .orderBy(['series', 'day', 'prev_day'])
          .select('series', db.raw('day::text'), db.raw('prev_day::text'), 'players'),
      ]);
    const kept = await rows(app.deps.db);
    expect(kept).toContain('"key":"GB"');
    expect(kept).toContain('deposited-in-currency:EUR');
    expect(kept).toContain('"day":"2026-06-02","ggr":0,"deposits":1000,"withdrawals":0,"ftds":"1"');
    const rebuilt = await readAfterRolledBack(app.deps.db, [dropRegionRollups, createRegionRollups, addRegionFtds], rows);
    expect(rebuilt).toEqual(kept);
  });
});
