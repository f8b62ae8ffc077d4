import { randomUUID } from 'node:crypto';
import { analytics, dayAgo as day, readAfterRolledBack, seedEvents, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';
import { lastDays } from '../../core/analyticsParams';
import { rawGames, rawKpis, rawProviders, rawRevenue } from '../../db/queries/analyticsRaw';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { runRollupPass } from '../../db/queries/analyticsRollup';
import { foldBatch } from '../../db/queries/analyticsRollupBatch';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';
import { viewKpis } from '../../db/queries/analyticsViews';
import { down as restoreOperatorKeys, up as dropOperatorKeys } from '../../db/migrations/20261220090200_drop_rollup_operator_keys';
import type { Db } from '../../db/knex';

/**
 * The incremental rollups (issue 45, docs/analytics.md "Rollups"): on a designed history the API returns the
 * hand-computed figures after one pass (fresh) and after later passes (caught up: a late event, an erasure); a re-run
 * or a crashed batch counts nothing twice; rows of transactions that commit out of order are never skipped; another
 * operator's rows never show.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;
let carol: DataClient;
let scope: AnalyticsScope;

const tx = (type: string, amount: number, currency: string, provider: string, status?: string) => ({
  type,
  amount,
  currency,
  provider,
  ...(status ? { status } : {}),
});
const round = (game: string, bet: number, win: number, currency?: string) => ({
  game_id: game.toLowerCase(),
  game_name: game,
  bet_amount: bet,
  win_amount: win,
  ...(currency ? { currency } : {}),
});
const get = (path: string, client: DataClient = alice) => analytics(app, client.key, path);
const THIRTY = () => lastDays(30, new Date());
const SEVEN = () => lastDays(7, new Date());

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob, carol] = await Promise.all([dataClient(app), dataClient(app), dataClient(app)]);
  await seedPlayers(alice, [{ externalId: 'p1' }, { externalId: 'p2' }, { externalId: 'p3' }]);
  await seedEvents(app, alice, [
    { externalId: 'p1', daysAgo: 0, eventType: 'transaction', data: tx('deposit', 1000, 'EUR', 'stripe', 'completed') },
    { externalId: 'p1', daysAgo: 2, eventType: 'transaction', data: tx('deposit', 500, 'EUR', 'stripe') },
    { externalId: 'p1', daysAgo: 2, eventType: 'game_activity', data: round('Starburst', 200, 50, 'EUR') },
    { externalId: 'p2', daysAgo: 2, eventType: 'game_activity', data: round('Starburst', 100, 0) },
    { externalId: 'p2', daysAgo: 5, eventType: 'transaction', data: tx('deposit', 300, 'USD', 'adyen', 'completed') },
    { externalId: 'p2', daysAgo: 0, eventType: 'transaction', data: tx('deposit', 700, 'EUR', 'adyen', 'failed') },
    { externalId: 'p2', daysAgo: 5, eventType: 'transaction', data: tx('withdrawal', 250, 'EUR', 'adyen', 'completed') },
    { externalId: 'p3', daysAgo: 1, eventType: 'transaction', data: tx('deposit', 4000, 'EUR', 'stripe', 'completed') },
    { externalId: 'p3', daysAgo: 1, eventType: 'game_activity', data: round('Book', 1000, 0, 'EUR') },
    { externalId: 'p1', daysAgo: 40, eventType: 'game_activity', data: round('Book', 60, 10, 'EUR') },
  ]);
  const imported = await alice.call('/batch/events', {
    body: [
      { externalId: 'p1', eventType: 'transaction', data: { ...tx('deposit', 111, 'EUR', 'stripe'), timestamp: `${day(100)}T10:00:00Z` } },
      { externalId: 'p2', eventType: 'game_activity', data: { ...round('Starburst', 20, 5, 'EUR'), timestamp: `${day(100)}T11:00:00Z` } },
    ],
  });
  expect(imported.status).toBe(202);
  expect((await waitForJob(alice, imported.body.data.jobId)).output).toMatchObject({ succeeded: 2, failed: 0 });
  await seedPlayers(bob, [{ externalId: 'p1' }]);
  await seedEvents(app, bob, [
    { externalId: 'p1', daysAgo: 0, eventType: 'transaction', data: tx('deposit', 99_999, 'EUR', 'stripe') },
    { externalId: 'p1', daysAgo: 0, eventType: 'game_activity', data: round('Starburst', 7777, 0, 'EUR') },
  ]);
  await seedPlayers(carol, [{ externalId: 'c1' }]);
  scope = { operatorId: alice.operator.operatorId, currency: 'EUR', reportingCurrency: 'EUR' };
}, 120_000);
afterAll(() => app.close());

const FRESH = {
  kpis: { total_players: 3, active_players_today: 3, total_ggr: 1250, total_deposits: 5500, total_withdrawals: 250, avg_deposit: 2750 },
  games: [
    { game_name: 'Starburst', rounds: 3, ggr: 265, unique_players: 2, avg_bet: 106.67 },
    { game_name: 'Book', rounds: 2, ggr: 1050, unique_players: 2, avg_bet: 530 },
  ],
  providers: [
    { provider: 'stripe', volume: 4, total_amount: 5611, success_rate: 1, completed_deposit_amount: 5611, completed_withdrawal_amount: 0 },
    { provider: 'adyen', volume: 2, total_amount: 950, success_rate: 0.5, completed_deposit_amount: 0, completed_withdrawal_amount: 250 },
  ],
};

/** Every figure the API serves for alice, from whichever path answers. */
async function figures(client: DataClient = alice): Promise<Record<string, unknown>> {
  const kpis = await get('/kpis', client);
  const games = await get('/games', client);
  const providers = await get('/providers', client);
  return { kpis: kpis.body.data.kpis, games: games.body.data.games, providers: providers.body.data.providers, refreshedAt: kpis.body.data.refreshed_at };
}

describe('fresh: the history just ingested, after one pass', () => {
  it('the raw tables give the hand-computed figures', async () => {
    expect(await rawKpis(app.deps.db, scope, THIRTY(), SEVEN())).toEqual(FRESH.kpis);
    expect(await rawGames(app.deps.db, scope, { start: '1970-01-01', end: day(0) }, { limit: 50, offset: 0 })).toEqual(FRESH.games);
    expect(await rawProviders(app.deps.db, scope)).toEqual(FRESH.providers);
  });

  it('POST /refresh runs a pass; the API then serves the same figures from the rollups, with refreshed_at = the watermark', async () => {
    const before = Date.now();
    const refreshed = await analytics(app, alice.key, '/refresh', { method: 'POST' });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ success: true, message: 'Views refreshed', refreshed_at: expect.any(String) });
    expect(new Date(refreshed.body.refreshed_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const served = await figures();
    expect(served).toEqual({ ...FRESH, refreshedAt: expect.any(String) });
    expect(new Date(served.refreshedAt as string).getTime()).toBeGreaterThanOrEqual(new Date(refreshed.body.refreshed_at).getTime());
  });

  it('an imported history lands on its day; a day, other currencies and 7-day activity are exact', async () => {
    const old = (await get(`/revenue?range=${day(100)}:${day(100)}`)).body.data;
    expect(old.refreshed_at).not.toBeNull();
    expect(old.rows).toEqual([{ date: day(100), total_ggr: 15, total_deposits: 111, depositing_players: 1, active_players: 2 }]);
    const twoDays = (await get(`/revenue?range=${day(2)}:${day(2)}`)).body.data.rows;
    expect(twoDays).toEqual([{ date: day(2), total_ggr: 250, total_deposits: 500, depositing_players: 1, active_players: 2 }]);
    expect(twoDays).toEqual(await rawRevenue(app.deps.db, scope, { start: day(2), end: day(2) }, 'day'));
    const usd = (await get('/kpis?currency=USD')).body.data.kpis;
    expect(usd).toEqual({ total_players: 3, active_players_today: 3, total_ggr: 0, total_deposits: 300, total_withdrawals: 0, avg_deposit: 300 });
  });

  it('operator B sees only its own rows, and A none of B’s', async () => {
    const served = await figures(bob);
    expect(served.kpis).toEqual({
      total_players: 1,
      active_players_today: 1,
      total_ggr: 7777,
      total_deposits: 99_999,
      total_withdrawals: 0,
      avg_deposit: 99_999,
    });
    expect(served.games).toEqual([{ game_name: 'Starburst', rounds: 1, ggr: 7777, unique_players: 1, avg_bet: 7777 }]);
    expect(served.providers).toEqual([
      { provider: 'stripe', volume: 1, total_amount: 99_999, success_rate: 1, completed_deposit_amount: 99_999, completed_withdrawal_amount: 0 },
    ]);
    expect((await figures(carol)).kpis).toEqual({
      total_players: 1,
      active_players_today: 0,
      total_ggr: 0,
      total_deposits: 0,
      total_withdrawals: 0,
      avg_deposit: 0,
    });
  });
});

describe('caught up: later passes', () => {
  it('re-running passes counts nothing twice', async () => {
    const rows = () => rollupRows(alice.operator.operatorId);
    const before = await rows();
    await runRollupPass(app.deps.db);
    await runRollupPass(app.deps.db);
    expect(await rows()).toEqual(before);
    expect((await figures()).kpis).toEqual(FRESH.kpis);
  });

  it('a late event arriving after the pass lands on the day it happened, not today', async () => {
    const late = await alice.call('/entities/p2/events', {
      body: { eventType: 'transaction', data: { ...tx('deposit', 50, 'EUR', 'stripe'), timestamp: `${day(20)}T08:00:00Z` } },
    });
    expect(late.status).toBe(201);
    await refreshAnalyticsViews(app.deps.db);
    expect((await get(`/revenue?range=${day(20)}:${day(20)}`)).body.data.rows).toEqual([
      { date: day(20), total_ggr: 0, total_deposits: 50, depositing_players: 1, active_players: 1 },
    ]);
    expect((await get(`/revenue?range=${day(0)}:${day(0)}`)).body.data.rows[0].total_deposits).toBe(1000);
    expect((await figures()).kpis).toEqual({ ...FRESH.kpis, total_deposits: 5550, avg_deposit: 1850 });
  });

  it('an erased player leaves every total, as the views did; the raw path agrees', async () => {
    expect((await alice.call('/entities/p3', { method: 'DELETE' })).status).toBe(200);
    await refreshAnalyticsViews(app.deps.db);
    const kpis = { total_players: 2, active_players_today: 2, total_ggr: 250, total_deposits: 1550, total_withdrawals: 250, avg_deposit: 775 };
    const served = await figures();
    expect(served.kpis).toEqual(kpis);
    expect(served.games).toEqual([FRESH.games[0], { game_name: 'Book', rounds: 1, ggr: 50, unique_players: 1, avg_bet: 60 }]);
    expect(served.providers).toEqual([
      { provider: 'stripe', volume: 4, total_amount: 1661, success_rate: 1, completed_deposit_amount: 1661, completed_withdrawal_amount: 0 },
      FRESH.providers[1],
    ]);
    expect(await rawKpis(app.deps.db, scope, THIRTY(), SEVEN())).toEqual(kpis);
    expect(await rawProviders(app.deps.db, scope)).toEqual(served.providers);
    const p3 = await app.deps.db('entities').where({ operator_id: scope.operatorId, external_id: 'p3' }).first('id');
    for (const table of ['analytics_player_days', 'analytics_game_players', 'analytics_provider_players']) {
      expect(await app.deps.db(table).where({ operator_id: scope.operatorId, entity_id: p3.id }).count()).toEqual([{ count: '0' }]);
    }
  });
});

/** Every rollup row of one operator, in a stable order. */
async function rollupRows(operatorId: string): Promise<unknown[]> {
  const tables = ['analytics_daily', 'analytics_player_days', 'analytics_games', 'analytics_game_players', 'analytics_providers', 'analytics_provider_players'];
  const all: unknown[] = [];
  for (const table of tables) {
    const rows = await app.deps.db(table).where({ operator_id: operatorId }).select('*');
    all.push(rows.map((row) => JSON.stringify(row)).sort());
  }
  return all;
}

describe('out-of-order commits and crashes', () => {
  const carolScope = (): AnalyticsScope => ({ operatorId: carol.operator.operatorId, currency: 'EUR', reportingCurrency: 'EUR' });
  const deposits = async (): Promise<number> => (await viewKpis(app.deps.db, carolScope(), THIRTY(), SEVEN())).total_deposits;
  const insertDeposit = async (db: TestApp['deps']['db'], amount: number): Promise<void> => {
    const entity = await db('entities').where({ operator_id: carol.operator.operatorId, external_id: 'c1' }).first('id');
    await db('entity_events').insert({
      id: randomUUID(),
      operator_id: carol.operator.operatorId,
      entity_id: entity.id,
      event_type: 'transaction',
      data: JSON.stringify(tx('deposit', amount, 'EUR', 'stripe')),
    });
  };

  it('an event whose transaction began first but commits last is counted once it commits, never skipped', async () => {
    const first = await app.deps.db.transaction();
    try {
      await insertDeposit(first, 10);
      const firstXid = (await first.raw('SELECT pg_current_xact_id()::text AS xid')).rows[0].xid as string;
      await app.deps.db.transaction(async (second) => insertDeposit(second, 20));
      await runRollupPass(app.deps.db);
      expect(await deposits()).toBe(0);
      const state = await app.deps.db('analytics_rollup_state').first('cursor_xid');
      expect(BigInt(state.cursor_xid)).toBeLessThan(BigInt(firstXid));
      await first.commit();
    } catch (error) {
      await first.rollback();
      throw error;
    }
    await refreshAnalyticsViews(app.deps.db);
    expect(await deposits()).toBe(30);
    expect((await get('/kpis', carol)).body.data.kpis.total_deposits).toBe(30);
  });

  it('the cursor never moves back: a write setting it back is refused by the database and counts nothing again', async () => {
    await runRollupPass(app.deps.db);
    const before = await app.deps.db('analytics_rollup_state').where({ id: 1 }).first('cursor_xid', 'cursor_id');
    expect(BigInt(before.cursor_xid)).toBeGreaterThan(0n);
    await expect(app.deps.db('analytics_rollup_state').where({ id: 1 }).update({ cursor_xid: 0, cursor_id: '' })).rejects.toThrow(
      /the analytics rollup cursor may not move back/,
    );
    await expect(app.deps.db('analytics_rollup_state').where({ id: 1 }).update({ cursor_xid: before.cursor_xid, cursor_id: '' })).rejects.toThrow(
      /may not move back/,
    );
    const after = await app.deps.db('analytics_rollup_state').where({ id: 1 }).first('cursor_xid', 'cursor_id');
    expect(BigInt(after.cursor_xid)).toBeGreaterThanOrEqual(BigInt(before.cursor_xid));
    expect(await deposits()).toBe(30);
  });

  it('a batch that crashes before its commit leaves figures and watermark as they were; the next pass counts it once', async () => {
    await insertDeposit(app.deps.db, 5);
    const crash = app.deps.db.transaction(async (trx) => {
      const state = await trx('analytics_rollup_state').where({ id: 1 }).forUpdate().first('cursor_xid', 'cursor_id');
      const batch = await foldBatch(trx, { xid: String(state.cursor_xid), id: state.cursor_id }, '9223372036854775807', 50_000);
      expect(batch.events).toBeGreaterThanOrEqual(1);
      await trx('analytics_rollup_state').where({ id: 1 }).update({ cursor_xid: batch.cursor.xid, cursor_id: batch.cursor.id });
      throw new Error('crash before commit');
    });
    await expect(crash).rejects.toThrow('crash before commit');
    expect(await deposits()).toBe(30);
    await refreshAnalyticsViews(app.deps.db);
    await refreshAnalyticsViews(app.deps.db);
    expect(await deposits()).toBe(35);
  });

  it('a batch spanning transaction ids of different lengths ends its cursor at its last event by number (1000 after 999), so the next batch counts nothing again', async () => {
    const entity = await app.deps.db('entities').where({ operator_id: carol.operator.operatorId, external_id: 'c1' }).first('id');
    const rolledBack = app.deps.db.transaction(async (trx) => {
      for (const xid of [999, 1000]) {
        await trx('entity_events').insert({
          id: randomUUID(),
          operator_id: carol.operator.operatorId,
          entity_id: entity.id,
          event_type: 'transaction',
          ingest_xid: xid,
          data: JSON.stringify(tx('deposit', 1, 'EUR', 'stripe')),
        });
      }
      const batch = await foldBatch(trx, { xid: '998', id: '' }, '1001', 50_000);
      expect(batch.events).toBeGreaterThanOrEqual(2);
      expect(batch.cursor.xid).toBe('1000');
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
  });
});

describe('the per-player rollup tables', () => {
  const operatorKeys = async (db: Db) =>
    Number(
      (
        await db.raw(
          `SELECT count(*) AS n FROM pg_constraint WHERE contype = 'f' AND confrelid = CAST('operators' AS regclass)
              AND conrelid IN (SELECT oid FROM pg_class WHERE relname IN ('analytics_player_chain', 'analytics_player_days', 'analytics_game_days',
                'analytics_game_players', 'analytics_provider_players', 'analytics_transactions', 'analytics_first_deposits', 'analytics_player_keys'))`,
        )
      ).rows[0].n,
    );

  it('carry no foreign key to operators (a check per inserted row); the migration puts all eight back and takes them off again (rolled back)', async () => {
    expect(await operatorKeys(app.deps.db)).toBe(0);
    expect(await readAfterRolledBack(app.deps.db, [restoreOperatorKeys], operatorKeys)).toBe(8);
    expect(await readAfterRolledBack(app.deps.db, [restoreOperatorKeys, dropOperatorKeys], operatorKeys)).toBe(0);
  });
});
