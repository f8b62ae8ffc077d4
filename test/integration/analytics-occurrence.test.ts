import { dayAgo as day, analytics, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';
import { lastDays } from '../../core/analyticsParams';
import { MAX_EVENT_FUTURE_MS } from '../../core/occurrence';
import { rawGames, rawKpis, rawRevenue } from '../../db/queries/analyticsRaw';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';
import { viewKpis, viewRevenue } from '../../db/queries/analyticsViews';

/**
 * Occurrence time (issue 45): an event is dated by its own `data.timestamp`, so a history imported today lands on its
 * days and a late event on the day it happened, on the raw path and on the views alike; a timestamp too far ahead is
 * refused naming the field; another operator's imports never count.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;
let scope: AnalyticsScope;

const OLD = 200;
const oldDay = day(OLD);
const deposit = (amount: number, timestamp?: string) => ({
  type: 'deposit',
  amount,
  currency: 'EUR',
  status: 'completed',
  provider: 'stripe',
  ...(timestamp ? { timestamp } : {}),
});
const round = (bet: number, win: number, timestamp?: string) => ({
  game_id: 'g-7',
  game_name: 'Book of Old',
  bet_amount: bet,
  win_amount: win,
  currency: 'EUR',
  ...(timestamp ? { timestamp } : {}),
});
const get = (path: string, client: DataClient = alice) => analytics(app, client.key, path);

async function importBatch(client: DataClient, body: unknown[]): Promise<any> {
  const submitted = await client.call('/batch/events', { body });
  expect(submitted.status).toBe(202);
  return waitForJob(client, submitted.body.data.jobId);
}

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await seedPlayers(alice, [{ externalId: 'imp-1' }, { externalId: 'imp-2' }]);
  await seedPlayers(bob, [{ externalId: 'imp-1' }]);
  const job = await importBatch(alice, [
    { externalId: 'imp-1', eventType: 'transaction', data: deposit(1234, `${oldDay}T09:30:00Z`) },
    { externalId: 'imp-2', eventType: 'game_activity', data: round(500, 100, `${oldDay}T23:59:59+00:00`) },
    { externalId: 'imp-2', eventType: 'game_activity', data: round(300, 0, `${day(OLD - 1)}T00:30:00+02:00`) },
    { externalId: 'imp-1', eventType: 'transaction', data: deposit(5, new Date(Date.now() + 60 * 60_000).toISOString()) },
  ]);
  expect(job.output).toMatchObject({ succeeded: 3, failed: 1 });
  expect(job.output.errors).toEqual([{ index: 3, externalId: 'imp-1', code: 'VALIDATION_FAILED', message: expect.stringContaining('data.timestamp') }]);
  const late = await alice.call('/entities/imp-1/events', { body: { eventType: 'transaction', data: deposit(70, `${day(2)}T12:00:00Z`) } });
  expect(late.status).toBe(201);
  const now = await alice.call('/entities/imp-2/events', { body: { eventType: 'transaction', data: deposit(30) } });
  expect(now.status).toBe(201);
  expect((await importBatch(bob, [{ externalId: 'imp-1', eventType: 'transaction', data: deposit(99_999, `${oldDay}T10:00:00Z`) }])).output.succeeded).toBe(1);
  scope = { operatorId: alice.operator.operatorId, currency: 'EUR', reportingCurrency: 'EUR' };
}, 120_000);
afterAll(() => app.close());

describe('stored beside arrival', () => {
  it('occurred_at is the event’s timestamp, created_at its arrival; without a timestamp they are the same', async () => {
    const rows = await app.deps.db('entity_events').where({ operator_id: alice.operator.operatorId }).select('data', 'created_at', 'occurred_at');
    const imported = rows.find((row) => row.data.amount === 1234);
    expect(imported.occurred_at.toISOString()).toBe(`${oldDay}T09:30:00.000Z`);
    expect(Date.now() - imported.created_at.getTime()).toBeLessThan(10 * 60_000);
    const shifted = rows.find((row) => row.data.bet_amount === 300);
    expect(shifted.occurred_at.toISOString()).toBe(`${day(OLD)}T22:30:00.000Z`);
    const plain = rows.find((row) => row.data.amount === 30);
    expect(plain.occurred_at.getTime()).toBe(plain.created_at.getTime());
  });
});

describe('an imported history counts on its days', () => {
  it('revenue and KPIs of the old day hold the imported events, today none of them (raw path and views agree)', async () => {
    const range = { start: oldDay, end: oldDay };
    const expected = [{ date: oldDay, total_ggr: 700, total_deposits: 1234, depositing_players: 1, active_players: 2 }];
    expect(await rawRevenue(app.deps.db, scope, range, 'day')).toEqual(expected);
    await refreshAnalyticsViews(app.deps.db);
    expect(await viewRevenue(app.deps.db, scope, range, 'day')).toEqual(expected);
    const response = await get(`/revenue?range=${oldDay}:${oldDay}`);
    expect(response.status).toBe(200);
    expect(response.body.data.rows).toEqual(expected);
    const active = lastDays(7, new Date());
    const kpis = { total_players: 2, active_players_today: 2, total_ggr: 700, total_deposits: 1234, total_withdrawals: 0, avg_deposit: 1234 };
    expect(await rawKpis(app.deps.db, scope, range, active)).toEqual(kpis);
    expect(await viewKpis(app.deps.db, scope, range, active)).toEqual(kpis);
    expect((await get(`/kpis?range=${oldDay}:${oldDay}`)).body.data.kpis).toEqual(kpis);
    const today = (await get(`/revenue?range=${day(0)}:${day(0)}`)).body.data.rows;
    expect(today).toEqual([{ date: day(0), total_ggr: 0, total_deposits: 30, depositing_players: 1, active_players: 1 }]);
  });

  it('a late event counts on the day it happened; the monthly bucket of the old day holds the import', async () => {
    const late = (await get(`/revenue?range=${day(2)}:${day(2)}`)).body.data.rows;
    expect(late).toEqual([{ date: day(2), total_ggr: 0, total_deposits: 70, depositing_players: 1, active_players: 1 }]);
    const monthly = (await get(`/revenue?period=monthly&range=${oldDay}:${day(0)}`)).body.data.rows as Array<{ date: string; total_deposits: number }>;
    expect(monthly.find((row) => row.date === `${oldDay.slice(0, 7)}-01`)?.total_deposits).toBe(1234);
    expect(monthly.reduce((sum, row) => sum + row.total_deposits, 0)).toBe(1234 + 70 + 30);
  });

  it('/games?range= (the raw path) counts the old rounds on their day', async () => {
    const response = await get(`/games?range=${oldDay}:${oldDay}`);
    expect(response.body.data.games).toEqual([{ game_name: 'Book of Old', rounds: 2, ggr: 700, unique_players: 1, avg_bet: 400 }]);
    expect(await rawGames(app.deps.db, scope, { start: day(0), end: day(0) }, { limit: 10, offset: 0 })).toEqual([]);
  });
});

describe('a timestamp too far ahead', () => {
  it(`is a 400 naming data.timestamp beyond ${MAX_EVENT_FUTURE_MS / 60_000} minutes; within them it is taken`, async () => {
    const ahead = new Date(Date.now() + MAX_EVENT_FUTURE_MS + 60_000).toISOString();
    const refused = await alice.call('/entities/imp-1/events', { body: { eventType: 'transaction', data: deposit(1, ahead) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'data.timestamp', message: "must be at most 5 minutes ahead of the server's clock" }],
    });
    const soon = new Date(Date.now() + 2 * 60_000).toISOString();
    expect((await alice.call('/entities/imp-1/events', { body: { eventType: 'game_activity', data: round(1, 1, soon) } })).status).toBe(201);
  });

  it('a time without a zone, or not a time, is a 400 naming the field on any event type', async () => {
    for (const [eventType, data] of [
      ['transaction', deposit(1, '2026-01-01T10:00:00')],
      ['session', { device: 'web', timestamp: 'yesterday' }],
      ['bonus', { amount: 1, timestamp: 1_700_000_000 }],
    ] as const) {
      const response = await alice.call('/entities/imp-1/events', { body: { eventType, data } });
      expect(response.status).toBe(400);
      expect(response.body.error.details).toEqual([{ field: 'data.timestamp', message: expect.stringMatching(/ISO 8601/) }]);
    }
  });
});

describe('operators stay apart', () => {
  it("operator B's figures for the old day hold only B's import, A's only A's", async () => {
    const bobs = (await get(`/revenue?range=${oldDay}:${oldDay}`, bob)).body.data.rows;
    expect(bobs).toEqual([{ date: oldDay, total_ggr: 0, total_deposits: 99_999, depositing_players: 1, active_players: 1 }]);
    expect((await get(`/kpis?range=${oldDay}:${oldDay}`, bob)).body.data.kpis).toMatchObject({ total_deposits: 99_999, total_ggr: 0, total_players: 1 });
    expect((await get(`/games?range=${oldDay}:${oldDay}`, bob)).body.data.games).toEqual([]);
    expect((await get(`/kpis?range=${oldDay}:${oldDay}`)).body.data.kpis.total_deposits).toBe(1234);
  });
});
