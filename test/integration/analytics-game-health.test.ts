import { analytics, earlierTransactionsEnded, readAfterRolledBack } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { gameHealth } from '../../db/queries/analyticsGameHealth';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { down as dropHealthDays, up as createHealthDays } from '../../db/migrations/20261218090400_create_game_health_days';
import { down as dropRoundSeries, up as createRoundSeries } from '../../db/migrations/20261220090100_create_round_series';

/**
 * Game health (issue 45, `GET /game-health`), computed by hand over May 2026 in EUR, answered from the rollups and
 * equal to the raw path's:
 * - Starburst (NetEnt): p1 bets 1000 and wins 900, of which 200 staked and 100 won on bonus money; p2 bets 500, wins 0.
 * - Book (Play'n GO): p1 bets 2000, wins 2500.
 * - a round with only `game_id` g-9 and no provider: p2 bets 100, wins 50.
 * Left out: a USD round, a round on 30 April, an erased player's round, operator B's round.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;

const round = (date: string, game: Record<string, unknown>, bet: number, win: number, extra: Record<string, unknown> = {}) => ({
  eventType: 'game_activity',
  data: { ...game, bet_amount: bet, win_amount: win, currency: 'EUR', timestamp: `${date}T12:00:00Z`, ...extra },
});
const STARBURST = { game_id: 'g-1', game_name: 'Starburst', provider: 'NetEnt' };
const BOOK = { game_id: 'g-2', game_name: 'Book', provider: "Play'n GO" };

async function send(client: DataClient, history: Record<string, Array<{ eventType: string; data: Record<string, unknown> }>>): Promise<void> {
  for (const [externalId, events] of Object.entries(history)) {
    expect((await client.call('/entities', { body: { entityType: 'player', externalId, data: {} } })).status).toBe(201);
    for (const body of events) expect((await client.call(`/entities/${externalId}/events`, { body })).status).toBe(201);
  }
}

const health = (rounds: number, players: number, turnover: number, wins: number, rtp: number | null, hold: number | null, cash: number, bonus: number) => ({
  rounds,
  players,
  turnover,
  wins,
  ggr: turnover - wins,
  rtp,
  hold,
  cash_ggr: cash,
  bonus_ggr: bonus,
});

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await send(alice, {
    p1: [
      round('2026-05-03', STARBURST, 1000, 900, { bonus_bet_amount: 200, bonus_win_amount: 100 }),
      round('2026-05-04', BOOK, 2000, 2500),
      round('2026-04-30', STARBURST, 999, 0),
    ],
    p2: [round('2026-05-05', STARBURST, 500, 0), round('2026-05-06', { game_id: 'g-9' }, 100, 50), round('2026-05-07', STARBURST, 700, 0, { currency: 'USD' })],
    p3: [round('2026-05-08', STARBURST, 5000, 0)],
  });
  expect((await alice.call('/entities/p3', { method: 'DELETE' })).status).toBe(200);
  await send(bob, { b1: [round('2026-05-03', STARBURST, 12_345, 0)] });
  await refreshAnalyticsViews(app.deps.db);
}, 60_000);
afterAll(() => app.close());

/** `GET /game-health` (the rollups answer: a pass has caught up), after checking that the raw path gives the same figures. */
async function get(query: string, client: DataClient = alice, range = '2026-05-01:2026-05-31') {
  const response = await analytics(app, client.key, `/game-health?range=${range}&currency=EUR${query}`);
  if (response.status === 200) {
    const { range: days, by, refreshed_at: refreshedAt, totals, rows, total_rows: totalRows } = response.body.data;
    const params = new URLSearchParams(query);
    const page = { limit: Number(params.get('limit') ?? 50), offset: Number(params.get('offset') ?? 0) };
    const scope = { operatorId: client.operator.operatorId, currency: 'EUR', reportingCurrency: 'EUR' };
    expect(refreshedAt).toEqual(expect.any(String));
    expect(await gameHealth(app.deps.db, scope, days, by, page)).toEqual({ totals, rows, total_rows: totalRows });
  }
  return response;
}

describe('protection and errors', () => {
  it('401 without credentials', async () => {
    expect((await analytics(app, undefined, '/game-health')).status).toBe(401);
  });

  it.each([
    ['&by=studio', 'by'],
    ['&limit=0', 'limit'],
    ['&offset=-1', 'offset'],
  ])('%s is 400 INVALID_PARAM naming %s', async (query, field) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_PARAM');
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
  });
});

describe('figures computed by hand', () => {
  it('per game, most staked first: actual RTP, hold, cash and bonus GGR, and the totals', async () => {
    const response = await get('');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        currency: 'EUR',
        range: { start: '2026-05-01', end: '2026-05-31' },
        by: 'game',
        refreshed_at: expect.any(String),
        totals: health(4, 2, 3600, 3450, 0.9583, 0.0417, 50, 100),
        rows: [
          { name: 'Book', ...health(1, 1, 2000, 2500, 1.25, -0.25, -500, 0) },
          { name: 'Starburst', ...health(2, 2, 1500, 900, 0.6, 0.4, 500, 100) },
          { name: 'g-9', ...health(1, 1, 100, 50, 0.5, 0.5, 50, 0) },
        ],
        total_rows: 3,
        has_more: false,
      },
    });
  });

  it('per provider, the rounds naming none as a row of their own; paged with has_more', async () => {
    const response = await get('&by=provider&limit=2');
    expect(response.body.data.rows.map((row: { name: string | null; turnover: number }) => [row.name, row.turnover])).toEqual([
      ["Play'n GO", 2000],
      ['NetEnt', 1500],
    ]);
    expect([response.body.data.total_rows, response.body.data.has_more]).toEqual([3, true]);
    const rest = await get('&by=provider&limit=2&offset=2');
    expect(rest.body.data.rows).toEqual([{ name: null, ...health(1, 1, 100, 50, 0.5, 0.5, 50, 0) }]);
    expect(rest.body.data.has_more).toBe(false);
  });

  it('a range without rounds: zeros and null ratios', async () => {
    const response = await get('', alice, '2026-06-01:2026-06-30');
    expect(response.body.data).toMatchObject({ totals: health(0, 0, 0, 0, null, null, 0, 0), rows: [], total_rows: 0, has_more: false });
  });

  it('a player erased after their rounds were rolled up leaves every figure and group', async () => {
    await send(alice, { p4: [round('2026-05-09', BOOK, 3000, 0), round('2026-05-09', { game_id: 'g-7', provider: 'Solo' }, 10, 0)] });
    await refreshAnalyticsViews(app.deps.db);
    const played = (await get('')).body.data;
    expect([played.totals.players, played.total_rows, played.rows[0]]).toEqual([3, 4, { name: 'Book', ...health(2, 2, 5000, 2500, 0.5, 0.5, 2500, 0) }]);
    expect((await alice.call('/entities/p4', { method: 'DELETE' })).status).toBe(200);
    await refreshAnalyticsViews(app.deps.db);
    const erased = (await get('')).body.data;
    expect([erased.totals, erased.total_rows, erased.rows.map((row: { name: string }) => row.name)]).toEqual([
      health(4, 2, 3600, 3450, 0.9583, 0.0417, 50, 100),
      3,
      ['Book', 'Starburst', 'g-9'],
    ]);
    expect((await get('&by=provider')).body.data.total_rows).toBe(3);
  });

  it('the migration creating the per-game days builds the same sums from the per-player days (rolled back)', async () => {
    const rows = async (db: typeof app.deps.db) =>
      JSON.stringify(
        await db('analytics_game_health_days')
          .where({ operator_id: alice.operator.operatorId })
          .where('rounds', '>', 0)
          .orderBy(['currency', 'day', 'game', 'provider'])
          .select('currency', 'game', 'provider', 'rounds', db.raw('day::text'), db.raw('bets::float8'), db.raw('wins::float8'), db.raw('bonus_bets::float8')),
      );
    const kept = await rows(app.deps.db);
    expect(kept).toContain('Starburst');
    const rebuilt = await readAfterRolledBack(app.deps.db, [dropHealthDays, createHealthDays], rows);
    expect(rebuilt).toEqual(kept);
  });

  it('operator B sees only its own round', async () => {
    const response = await get('', bob);
    expect(response.body.data.rows).toEqual([{ name: 'Starburst', ...health(1, 1, 12_345, 0, 0, 1, 12_345, 0) }]);
  });

  it('players per game and provider count each player once per range, days told late included (p5: Starburst on 12 May, then 10 May)', async () => {
    const players = async (query: string, range?: string) =>
      Object.fromEntries((await get(query, alice, range)).body.data.rows.map((row: { name: string | null; players: number }) => [row.name, row.players]));
    await send(alice, { p5: [round('2026-05-12', STARBURST, 10, 0)] });
    await earlierTransactionsEnded(app.deps.db);
    await refreshAnalyticsViews(app.deps.db);
    expect((await alice.call('/entities/p5/events', { body: round('2026-05-10', STARBURST, 10, 0) })).status).toBe(201);
    await earlierTransactionsEnded(app.deps.db);
    await refreshAnalyticsViews(app.deps.db);
    expect(await players('')).toEqual({ Book: 1, Starburst: 3, 'g-9': 1 });
    expect(await players('', '2026-05-04:2026-05-12')).toEqual({ Book: 1, Starburst: 2, 'g-9': 1 });
    expect(await players('', '2026-05-11:2026-05-31')).toEqual({ Starburst: 1 });
    expect(await players('&by=provider')).toEqual({ "Play'n GO": 1, NetEnt: 3, null: 1 });
  });

  it('the migration creating the game and provider series builds the same chains and gaps from the per-player days (rolled back)', async () => {
    const rows = async (db: typeof app.deps.db) =>
      JSON.stringify([
        await db('analytics_player_chain')
          .where({ operator_id: alice.operator.operatorId })
          .whereRaw(`(series LIKE 'game-in-currency:%' OR series LIKE 'provider-in-currency:%')`)
          .orderBy(['entity_id', 'series', 'day'])
          .select('entity_id', 'series', db.raw('day::text'), db.raw('prev_day::text')),
        await db('analytics_player_gaps')
          .where({ operator_id: alice.operator.operatorId })
          .whereRaw(`(series LIKE 'game-in-currency:%' OR series LIKE 'provider-in-currency:%') AND players <> 0`)
          .orderBy(['series', 'day', 'prev_day'])
          .select('series', db.raw('day::text'), db.raw('prev_day::text'), 'players'),
      ]);
    const kept = await rows(app.deps.db);
    expect(kept).toContain('"series":"game-in-currency:3:EUR:Starburst","day":"2026-05-12","prev_day":"2026-05-10"');
    expect(kept).toContain('"series":"provider-in-currency:3:EUR"');
    expect(await readAfterRolledBack(app.deps.db, [dropRoundSeries, createRoundSeries], rows)).toEqual(kept);
  });
});
