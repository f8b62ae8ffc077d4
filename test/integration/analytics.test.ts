import { dayAgo as day } from '../helpers/analytics';
import { analytics, seedEvents, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { lastDays } from '../../core/analyticsParams';
import { rawGames, rawKpis, rawProviders, rawRevenue } from '../../db/queries/analyticsRaw';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';
import { viewGames, viewKpis, viewProviders, viewRevenue } from '../../db/queries/analyticsViews';

let app: TestApp;
let alice: DataClient;
let bob: DataClient;
let scope: AnalyticsScope;

const tx = (type: string, amount: number, currency: string, provider: string, status?: string) => ({
  type,
  amount,
  currency,
  provider,
  ...(status ? { status } : {}),
});

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await seedPlayers(alice, [
    { externalId: 'alpha-1', data: { first_name: 'Ada', email: 'ada@example.com', country: 'GB' } },
    { externalId: 'alpha-2' },
    { externalId: 'beta-3' },
    { externalId: 'gone-4' },
  ]);
  await seedEvents(app, alice, [
    { externalId: 'alpha-1', daysAgo: 0, eventType: 'transaction', data: tx('deposit', 1000, 'EUR', 'stripe', 'completed') },
    { externalId: 'alpha-1', daysAgo: 3, eventType: 'transaction', data: tx('deposit', 500, 'EUR', 'stripe') },
    {
      externalId: 'alpha-1',
      daysAgo: 0,
      eventType: 'game_activity',
      data: { game_id: 'g-1', game_name: 'Starburst', bet_amount: 200, win_amount: 50, currency: 'EUR' },
    },
    { externalId: 'alpha-1', daysAgo: 10, eventType: 'game_activity', data: { game_id: 'g-1', game_name: 'Starburst', bet_amount: 100 } },
    { externalId: 'alpha-2', daysAgo: 3, eventType: 'transaction', data: tx('deposit', 2000, 'USD', 'adyen', 'completed') },
    { externalId: 'alpha-2', daysAgo: 3, eventType: 'transaction', data: tx('withdrawal', 300, 'EUR', 'adyen', 'completed') },
    { externalId: 'alpha-2', daysAgo: 0, eventType: 'transaction', data: tx('deposit', 700, 'EUR', 'adyen', 'failed') },
    { externalId: 'alpha-2', daysAgo: 10, eventType: 'game_activity', data: { game_id: 'g-42', bet_amount: 400, win_amount: 450, currency: 'EUR' } },
    { externalId: 'beta-3', daysAgo: 40, eventType: 'game_activity', data: { game_id: 'g-1', game_name: 'Starburst', bet_amount: 300, currency: 'EUR' } },
    { externalId: 'beta-3', daysAgo: 40, eventType: 'transaction', data: tx('deposit', 900, 'EUR', 'stripe', 'pending') },
    { externalId: 'beta-3', daysAgo: 0, eventType: 'session', data: { device: 'web' } },
    { externalId: 'gone-4', daysAgo: 0, eventType: 'transaction', data: tx('deposit', 10000, 'EUR', 'stripe', 'completed') },
    { externalId: 'gone-4', daysAgo: 0, eventType: 'game_activity', data: { game_id: 'g-1', game_name: 'Starburst', bet_amount: 5000, currency: 'EUR' } },
  ]);
  for (let i = 0; i < 21; i += 1) await alice.call('/entities/alpha-1/events', { body: { eventType: 'session', data: { session_id: `s-${i}` } } });
  await alice.call('/entities/alpha-1/state/balance', { method: 'PUT', body: { value: { balance: 42, currency: 'EUR' } } });
  expect((await alice.call('/entities/gone-4', { method: 'DELETE' })).status).toBe(200);
  await seedPlayers(bob, [{ externalId: 'alpha-1', data: { first_name: 'Bob' } }]);
  await seedEvents(app, bob, [
    { externalId: 'alpha-1', daysAgo: 0, eventType: 'transaction', data: tx('deposit', 99_999, 'EUR', 'stripe') },
    { externalId: 'alpha-1', daysAgo: 0, eventType: 'game_activity', data: { game_id: 'g-1', game_name: 'Starburst', bet_amount: 7777, currency: 'EUR' } },
  ]);
  await refreshAnalyticsViews(app.deps.db);
  scope = { operatorId: alice.operator.operatorId, currency: 'EUR', reportingCurrency: 'EUR' };
}, 120_000);
afterAll(() => app.close());

const get = (path: string, token = alice.key) => analytics(app, token, path);

describe('GET /kpis (hand-computed)', () => {
  it('30 days by default: erased players, failed/pending deposits and other currencies left out', async () => {
    const response = await get('/kpis');
    expect(response.status).toBe(200);
    expect(response.body.data.kpis).toEqual({
      total_players: 3,
      active_players_today: 3,
      total_ggr: 200,
      total_deposits: 1500,
      total_withdrawals: 300,
      avg_deposit: 1500,
    });
    expect(response.body.data.range).toEqual(lastDays(30, new Date()));
    expect(typeof response.body.data.refreshed_at).toBe('string');
  });

  it('honours range and currency, and a session JWT works like a key', async () => {
    expect((await get('/kpis?range=7d')).body.data.kpis).toMatchObject({ total_ggr: 150, total_deposits: 1500, total_withdrawals: 300 });
    expect((await get('/kpis?range=90d')).body.data.kpis).toMatchObject({ total_ggr: 500, total_deposits: 1500 });
    expect((await get(`/kpis?range=${day(10)}:${day(10)}`)).body.data.kpis).toMatchObject({ total_ggr: 50, total_deposits: 0, avg_deposit: 0 });
    const usd = await get('/kpis?currency=USD', alice.operator.accessToken);
    expect(usd.status).toBe(200);
    expect(usd.body.data.kpis).toEqual({
      total_players: 3,
      active_players_today: 3,
      total_ggr: 0,
      total_deposits: 2000,
      total_withdrawals: 0,
      avg_deposit: 2000,
    });
  });
});

describe('GET /revenue (hand-computed)', () => {
  it('daily over 30 days: one row per day, empty days zero', async () => {
    const response = await get('/revenue');
    expect(response.status).toBe(200);
    expect(response.body.data.period).toBe('daily');
    expect(response.body.truncated).toBe(false);
    const rows = response.body.data.rows as Array<{ date: string }>;
    expect(rows).toHaveLength(30);
    expect(rows[0]!.date).toBe(day(29));
    const byDate = new Map(rows.map((row) => [row.date, row]));
    expect(byDate.get(day(0))).toEqual({ date: day(0), total_ggr: 150, total_deposits: 1000, depositing_players: 1, active_players: 3 });
    expect(byDate.get(day(3))).toEqual({ date: day(3), total_ggr: 0, total_deposits: 500, depositing_players: 1, active_players: 2 });
    expect(byDate.get(day(10))).toEqual({ date: day(10), total_ggr: 50, total_deposits: 0, depositing_players: 0, active_players: 2 });
    expect(byDate.get(day(1))).toEqual({ date: day(1), total_ggr: 0, total_deposits: 0, depositing_players: 0, active_players: 0 });
  });

  it('weekly (12 weeks) and monthly (12 months) buckets hold the same totals', async () => {
    const weekly = await get('/revenue?period=weekly');
    expect(weekly.body.data.rows).toHaveLength(12);
    for (const row of weekly.body.data.rows) expect(new Date(`${row.date}T00:00:00Z`).getUTCDay()).toBe(1);
    const monthly = await get('/revenue?period=monthly');
    expect(monthly.body.data.rows).toHaveLength(12);
    for (const row of monthly.body.data.rows) expect(row.date.endsWith('-01')).toBe(true);
    for (const rows of [weekly.body.data.rows, monthly.body.data.rows]) {
      expect(rows.reduce((sum: number, row: { total_ggr: number }) => sum + row.total_ggr, 0)).toBe(500);
      expect(rows.reduce((sum: number, row: { total_deposits: number }) => sum + row.total_deposits, 0)).toBe(1500);
    }
    const thisWeek = weekly.body.data.rows.at(-1);
    const mondayOffset = (new Date().getUTCDay() + 6) % 7;
    expect(thisWeek.active_players).toBe(3);
    expect(thisWeek.depositing_players).toBe(1);
    expect(thisWeek.total_deposits).toBe(mondayOffset >= 3 ? 1500 : 1000);
  });

  it('format=csv exports the rows', async () => {
    const response = await get('/revenue?format=csv&range=7d');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('x-truncated')).toBe('false');
    const lines = response.text.trim().split('\n');
    expect(lines[0]).toBe('date,total_ggr,total_deposits,depositing_players,active_players');
    expect(lines).toHaveLength(8);
    expect(lines.at(-1)).toBe(`${day(0)},150,1000,1,3`);
  });

  it('a response over 1 MB is cut and says truncated: true', async () => {
    const response = await get(`/revenue?range=1990-01-01:${day(0)}`);
    expect(response.status).toBe(200);
    expect(response.body.truncated).toBe(true);
    expect(Buffer.byteLength(response.text)).toBeLessThanOrEqual(1_048_576);
    expect(response.body.data.rows.length).toBeGreaterThan(10_000);
    expect(response.body.data.rows[0].date).toBe('1990-01-01');
  });
});

describe('GET /games and /providers (hand-computed)', () => {
  it('game rows from the all-time view', async () => {
    const response = await get('/games');
    expect(response.status).toBe(200);
    expect(response.body.truncated).toBe(false);
    expect(response.body.data.games).toEqual([
      { game_name: 'Starburst', rounds: 3, ggr: 550, unique_players: 2, avg_bet: 200 },
      { game_name: 'g-42', rounds: 1, ggr: -50, unique_players: 1, avg_bet: 400 },
    ]);
    expect((await get('/games?limit=1&offset=1')).body.data.games.map((g: { game_name: string }) => g.game_name)).toEqual(['g-42']);
  });

  it('a range reads the raw tables (refreshed_at null)', async () => {
    const response = await get('/games?range=7d');
    expect(response.body.data.refreshed_at).toBeNull();
    expect(response.body.data.games).toEqual([{ game_name: 'Starburst', rounds: 1, ggr: 150, unique_players: 1, avg_bet: 200 }]);
  });

  it('format=csv exports the game rows', async () => {
    const response = await get('/games?format=csv');
    expect(response.text).toBe('game_name,rounds,ggr,unique_players,avg_bet\nStarburst,3,550,2,200\ng-42,1,-50,1,400\n');
  });

  it('provider rows: success_rate = completed / all, missing status counts as completed; completed deposits and withdrawals apart', async () => {
    const response = await get('/providers');
    expect(response.body.data.providers).toEqual([
      { provider: 'stripe', volume: 3, total_amount: 2400, success_rate: 2 / 3, completed_deposit_amount: 1500, completed_withdrawal_amount: 0 },
      { provider: 'adyen', volume: 2, total_amount: 1000, success_rate: 0.5, completed_deposit_amount: 0, completed_withdrawal_amount: 300 },
    ]);
    expect((await get('/providers?currency=USD')).body.data.providers).toEqual([
      { provider: 'adyen', volume: 1, total_amount: 2000, success_rate: 1, completed_deposit_amount: 2000, completed_withdrawal_amount: 0 },
    ]);
  });
});

describe('views and raw tables give the same numbers', () => {
  it.each(['7d', '30d', '90d'])('KPIs and revenue over %s', async (preset) => {
    const range = lastDays(Number(preset.replace('d', '')), new Date());
    const active = lastDays(7, new Date());
    expect(await viewKpis(app.deps.db, scope, range, active)).toEqual(await rawKpis(app.deps.db, scope, range, active));
    for (const unit of ['day', 'week', 'month'] as const) {
      expect(await viewRevenue(app.deps.db, scope, range, unit)).toEqual(await rawRevenue(app.deps.db, scope, range, unit));
    }
  });

  it('games and providers, in both currencies', async () => {
    for (const currency of ['EUR', 'USD']) {
      const s = { ...scope, currency };
      expect(await viewGames(app.deps.db, s, { limit: 50, offset: 0 })).toEqual(
        await rawGames(app.deps.db, s, { start: '1970-01-01', end: day(0) }, { limit: 50, offset: 0 }),
      );
      expect(await viewProviders(app.deps.db, s)).toEqual(await rawProviders(app.deps.db, s));
    }
    expect((await rawKpis(app.deps.db, scope, lastDays(30, new Date()), lastDays(7, new Date()))).total_ggr).toBe(200);
  });
});

describe('GET /players and /players/:id', () => {
  it('lists live players with PII sealed, sorted, paged, searched', async () => {
    const response = await get('/players?entity_type=player&sort=external_id&direction=asc&limit=2');
    expect(response.status).toBe(200);
    expect(response.body.data.total).toBe(3);
    expect(response.body.data.has_more).toBe(true);
    expect(response.body.data.players.map((p: { external_id: string }) => p.external_id)).toEqual(['alpha-1', 'alpha-2']);
    expect(response.body.data.players[0].data.first_name).toMatch(/^enc:/);
    expect(response.body.data.players[0].data.country).toBe('GB');
    const page2 = await get('/players?entity_type=player&sort=external_id&direction=asc&limit=2&offset=2');
    expect(page2.body.data).toMatchObject({ total: 3, has_more: false });
    expect(page2.body.data.players.map((p: { external_id: string }) => p.external_id)).toEqual(['beta-3']);
    const search = await get('/players?entity_type=player&search=ALPHA&sort=external_id&direction=desc');
    expect(search.body.data.players.map((p: { external_id: string }) => p.external_id)).toEqual(['alpha-2', 'alpha-1']);
    expect((await get('/players?entity_type=player&search=%25')).body.data.total).toBe(0);
  });

  it('format=csv exports the page', async () => {
    const response = await get('/players?entity_type=player&format=csv&sort=external_id&direction=asc');
    const lines = response.text.trim().split('\n');
    expect(lines[0]).toBe('id,external_id,entity_type,data,created_at,updated_at');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',alpha-1,player,"{');
  });

  it('one player: PII opened, states, the 20 most recent events; erased players are 404', async () => {
    const response = await get('/players/alpha-1');
    expect(response.status).toBe(200);
    const detail = response.body.data;
    expect(detail.data).toEqual({ first_name: 'Ada', email: 'ada@example.com', country: 'GB' });
    expect(detail.states).toEqual([{ state_key: 'balance', value: { balance: 42, currency: 'EUR' }, updated_at: expect.any(String) }]);
    expect(detail.recentEvents).toHaveLength(20);
    const times = detail.recentEvents.map((event: { created_at: string }) => event.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const total = await app.deps
      .db('entity_events')
      .where({ operator_id: alice.operator.operatorId, entity_id: detail.id })
      .count<{ count: string }[]>({ count: '*' });
    expect(Number(total[0]!.count)).toBe(25);
    expect(times.some((time: string) => time.startsWith(day(10)))).toBe(false);
    const gone = await get('/players/gone-4');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'No player with external id gone-4' } });
  });
});

describe('tenant isolation', () => {
  it("B's figures hold only B's data, and A's never include B's", async () => {
    expect((await get('/kpis', bob.key)).body.data.kpis).toEqual({
      total_players: 1,
      active_players_today: 1,
      total_ggr: 7777,
      total_deposits: 99_999,
      total_withdrawals: 0,
      avg_deposit: 99_999,
    });
    expect((await get('/games', bob.key)).body.data.games).toEqual([{ game_name: 'Starburst', rounds: 1, ggr: 7777, unique_players: 1, avg_bet: 7777 }]);
    expect((await get('/players/alpha-1', bob.key)).body.data.data).toEqual({ first_name: 'Bob' });
    expect((await get('/players?entity_type=player', bob.key)).body.data.total).toBe(1);
    expect((await get('/kpis')).body.data.kpis.total_deposits).toBe(1500);
  });
});
