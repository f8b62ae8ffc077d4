import { dayAgo as day, analytics, earlierTransactionsEnded, readAfterRolledBack, seedEvents, seedPlayers, type SeedEvent } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';
import { IS_DEPOSIT } from '../../db/queries/analyticsSql';
import { businessFigures } from '../../db/queries/analyticsBusiness';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { down as dropTransactionDays, up as createTransactionDays } from '../../db/migrations/20261220090000_create_transaction_days';
import { down as dropConversions, up as createConversions } from '../../db/migrations/20261221090000_create_conversions';
import { down as unkeyTransactions, up as rekeyTransactions } from '../../db/migrations/20261223090000_rekey_analytics_transactions';
import type { Db } from '../../db/knex';

/**
 * Business figures (issue 45, `GET /business`), every number computed by hand from this history, answered from the
 * rollups (a pass has caught up) and equal to the raw path's for both periods of every request. Range: the last 10
 * days (day 9 … day 0 back); previous period: day 19 … day 10. Players (registration day back):
 * - p1 (5): EUR deposit 1000 on day 4 (its FTD) and 500 on day 2, EUR withdrawal 250 on day 1, a round 300/100 on day 3.
 * - p2 (15): EUR deposit 2000 imported today with `data.timestamp` of day 15 (FTD of the previous period), 700 on
 *   day 1; withdrawal w-1 of 400 completed on day 3 and reversed on day 2; a round 1000/0 on day 1.
 * - p3 (3): EUR deposit 300 failed on day 3; a USD deposit 800 sent late today, dated day 2 (its FTD, in USD); a USD round 50/20.
 * - p4 (4): EUR deposit 900 on day 4, then erased: registered (counted), its redacted events add nothing.
 * - p5 (25): EUR deposit 300 on day 12 (FTD previous), EUR withdrawals 100 pending and 50 failed on day 6, a round 200/500 on day 7.
 * Operator B has a p1 registered on day 5 with a EUR deposit of 99 999 on day 4.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;

const RANGE = `${day(9)}:${day(0)}`;
const tx = (type: string, amount: number, extra: Record<string, unknown> = {}) => ({
  type,
  amount,
  currency: 'EUR',
  status: 'completed',
  provider: 'stripe',
  ...extra,
});
const round = (bet: number, win: number, currency = 'EUR') => ({ game_id: 'g-1', game_name: 'Book', bet_amount: bet, win_amount: win, currency });
const event = (externalId: string, daysAgo: number, eventType: string, data: Record<string, unknown>): SeedEvent => ({ externalId, daysAgo, eventType, data });
/**
 * `GET /business` (the rollups answer: a pass has caught up with the history), after checking that the raw path
 * gives the same figures for both periods.
 */
async function get(path: string, client: DataClient = alice) {
  const response = await analytics(app, client.key, path);
  if (response.status === 200) {
    const { currency, range, previous_range: previous } = response.body.data;
    const scope = { operatorId: client.operator.operatorId, currency, reportingCurrency: 'EUR' };
    expect(response.body.data.refreshed_at).toEqual(expect.any(String));
    expect({ current: await businessFigures(app.deps.db, scope, range), previous: await businessFigures(app.deps.db, scope, previous) }).toEqual({
      current: response.body.data.current,
      previous: response.body.data.previous,
    });
  }
  return response;
}
/** A rollup pass over everything sent so far. */
async function pass(): Promise<void> {
  await earlierTransactionsEnded(app.deps.db);
  await refreshAnalyticsViews(app.deps.db);
}
const statuses = (counts: Partial<Record<'pending' | 'completed' | 'failed' | 'reversed' | 'cancelled', number>>) => ({
  pending: 0,
  completed: 0,
  failed: 0,
  reversed: 0,
  cancelled: 0,
  ...counts,
});

async function registerOn(client: DataClient, registrations: Record<string, number>): Promise<void> {
  await seedPlayers(
    client,
    Object.keys(registrations).map((externalId) => ({ externalId })),
  );
  for (const [externalId, daysAgo] of Object.entries(registrations)) {
    await app.deps.db.raw(
      `UPDATE entities SET created_at = (CAST(? AS date) + time '12:00')::timestamp AT TIME ZONE 'UTC' WHERE operator_id = ? AND external_id = ?`,
      [day(daysAgo), client.operator.operatorId, externalId],
    );
  }
}

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await registerOn(alice, { p1: 5, p2: 15, p3: 3, p4: 4, p5: 25 });
  await seedEvents(app, alice, [
    event('p1', 4, 'transaction', tx('deposit', 1000)),
    event('p1', 2, 'transaction', tx('deposit', 500)),
    event('p1', 1, 'transaction', tx('withdrawal', 250)),
    event('p1', 3, 'game_activity', round(300, 100)),
    event('p2', 1, 'transaction', tx('deposit', 700)),
    event('p2', 3, 'transaction', tx('withdrawal', 400, { id: 'w-1' })),
    event('p2', 2, 'transaction', tx('withdrawal', 400, { id: 'w-1', status: 'reversed' })),
    event('p2', 1, 'game_activity', round(1000, 0)),
    event('p3', 3, 'transaction', tx('deposit', 300, { status: 'failed' })),
    event('p3', 2, 'game_activity', round(50, 20, 'USD')),
    event('p4', 4, 'transaction', tx('deposit', 900)),
    event('p5', 12, 'transaction', tx('deposit', 300)),
    event('p5', 6, 'transaction', tx('withdrawal', 100, { status: 'pending' })),
    event('p5', 6, 'transaction', tx('withdrawal', 50, { status: 'failed' })),
    event('p5', 7, 'game_activity', round(200, 500)),
  ]);
  const submitted = await alice.call('/batch/events', {
    body: [{ externalId: 'p2', eventType: 'transaction', data: tx('deposit', 2000, { timestamp: `${day(15)}T08:00:00Z` }) }],
  });
  expect(submitted.status).toBe(202);
  expect((await waitForJob(alice, submitted.body.data.jobId)).output).toMatchObject({ succeeded: 1, failed: 0 });
  const late = await alice.call('/entities/p3/events', {
    body: { eventType: 'transaction', data: tx('deposit', 800, { currency: 'USD', timestamp: `${day(2)}T10:00:00Z` }) },
  });
  expect(late.status).toBe(201);
  expect((await alice.call('/entities/p4', { method: 'DELETE' })).status).toBe(200);
  await registerOn(bob, { p1: 5 });
  await seedEvents(app, bob, [event('p1', 4, 'transaction', tx('deposit', 99_999))]);
  await refreshAnalyticsViews(app.deps.db);
}, 120_000);
afterAll(() => app.close());

describe('protection and errors', () => {
  it('401 without credentials or with a bad key (any key or session of the operator may read analytics: no 403 here)', async () => {
    const missing = await analytics(app, undefined, '/business');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing API key or session token' } });
    const bad = await analytics(app, `svc_live_${'0'.repeat(64)}`, '/business');
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('UNAUTHORIZED');
  });

  it.each([
    ['range=1y', 'range'],
    [`range=${day(0)}:${day(9)}`, 'range'],
    ['range=0001-01-01:0001-01-05', 'range'],
    ['currency=eur', 'currency'],
  ])('%s is 400 INVALID_PARAM naming %s', async (query, field) => {
    const response = await get(`/business?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_PARAM');
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
  });
});

describe('figures computed by hand', () => {
  it('EUR: the range and the period before it', async () => {
    const response = await get(`/business?range=${RANGE}&currency=EUR`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        currency: 'EUR',
        range: { start: day(9), end: day(0) },
        previous_range: { start: day(19), end: day(10) },
        refreshed_at: expect.any(String),
        current: {
          registrations: 3,
          ftd_count: 1,
          ftd_amount: 1000,
          converted_players: 1,
          conversion_rate: 0.3333,
          deposits: { completed_amount: 2200, counts: statuses({ completed: 3, failed: 1 }) },
          withdrawals: { completed_amount: 250, counts: statuses({ completed: 1, pending: 1, failed: 1, reversed: 1 }) },
          ggr: 900,
          active_players: 3,
          depositing_players: 2,
          arpu: 300,
          arppu: 450,
        },
        previous: {
          registrations: 1,
          ftd_count: 2,
          ftd_amount: 2300,
          converted_players: 1,
          conversion_rate: 1,
          deposits: { completed_amount: 2300, counts: statuses({ completed: 2 }) },
          withdrawals: { completed_amount: 0, counts: statuses({}) },
          ggr: 0,
          active_players: 0,
          depositing_players: 2,
          arpu: 0,
          arppu: 0,
        },
        ngr: {
          definition_version: null,
          current: {
            ggr: 900,
            bonus_cost: 0,
            taxes: 0,
            other_deductions: 0,
            ngr: 900,
            taxes_by_jurisdiction: [{ jurisdiction: '', rate: 0, taxable: 900, tax: 0 }],
            deductions: [],
          },
          previous: { ggr: 0, bonus_cost: 0, taxes: 0, other_deductions: 0, ngr: 0, taxes_by_jurisdiction: [], deductions: [] },
        },
      },
    });
  });

  it('USD is its own figures, never added to EUR; the late deposit is p3’s FTD on day 2', async () => {
    const response = await get(`/business?range=${RANGE}&currency=USD`);
    expect(response.status).toBe(200);
    expect(response.body.data.current).toEqual({
      registrations: 3,
      ftd_count: 1,
      ftd_amount: 800,
      converted_players: 1,
      conversion_rate: 0.3333,
      deposits: { completed_amount: 800, counts: statuses({ completed: 1 }) },
      withdrawals: { completed_amount: 0, counts: statuses({}) },
      ggr: 30,
      active_players: 1,
      depositing_players: 1,
      arpu: 30,
      arppu: 30,
    });
    const lateDay = (await get(`/business?range=${day(2)}:${day(2)}&currency=USD`)).body.data.current;
    expect([lateDay.ftd_count, lateDay.ftd_amount]).toEqual([1, 800]);
  });

  it('the imported deposit counts on its own day, not on the day it arrived', async () => {
    const imported = (await get(`/business?range=${day(15)}:${day(15)}&currency=EUR`)).body.data.current;
    expect([imported.registrations, imported.ftd_count, imported.ftd_amount, imported.conversion_rate]).toEqual([1, 1, 2000, 1]);
    const today = (await get(`/business?range=${day(0)}:${day(0)}&currency=EUR`)).body.data.current;
    expect([today.ftd_count, today.deposits.completed_amount]).toEqual([0, 0]);
  });

  it('the erased player is counted and never identified: no id or external id anywhere in the body', async () => {
    const response = await get(`/business?range=${day(4)}:${day(4)}&currency=EUR`);
    expect(response.body.data.current).toMatchObject({ registrations: 1, ftd_count: 1, ftd_amount: 1000, converted_players: 0 });
    expect(JSON.stringify(response.body)).not.toMatch(/p4|ent_/);
  });

  it('operator B sees only its own player; its 99 999 never reaches A', async () => {
    const response = await get(`/business?range=${RANGE}&currency=EUR`, bob);
    expect(response.body.data.current).toMatchObject({ registrations: 1, ftd_count: 1, ftd_amount: 99_999, converted_players: 1, conversion_rate: 1 });
    expect(response.body.data.current.deposits.completed_amount).toBe(99_999);
  });
});

describe('a transaction told out of order, over two passes (GBP, player p6 registered 60 days back)', () => {
  const gbp = (status: string, extra: Record<string, unknown> = {}) => tx('deposit', 500, { id: 'g-1', currency: 'GBP', status, ...extra });
  const figures = async (from: number, to: number) => {
    const { deposits, depositing_players: depositing } = (await get(`/business?range=${day(from)}:${day(to)}&currency=GBP`)).body.data.current;
    return { amount: deposits.completed_amount, counts: deposits.counts, depositing };
  };
  it('completed on day 6, then a pending dated day 8 and a reversal dated day 3 arrive: each range sees the latest status within it', async () => {
    await registerOn(alice, { p6: 60 });
    await seedEvents(app, alice, [event('p6', 6, 'transaction', gbp('completed'))]);
    await pass();
    expect(await figures(8, 0)).toEqual({ amount: 500, counts: statuses({ completed: 1 }), depositing: 1 });

    await seedEvents(app, alice, [event('p6', 8, 'transaction', gbp('pending')), event('p6', 3, 'transaction', gbp('reversed'))]);
    await pass();
    expect(await figures(8, 8)).toEqual({ amount: 0, counts: statuses({ pending: 1 }), depositing: 0 });
    expect(await figures(8, 6)).toEqual({ amount: 500, counts: statuses({ completed: 1 }), depositing: 1 });
    expect(await figures(6, 4)).toEqual({ amount: 500, counts: statuses({ completed: 1 }), depositing: 1 });
    expect(await figures(5, 4)).toEqual({ amount: 0, counts: statuses({}), depositing: 0 });
    expect(await figures(3, 3)).toEqual({ amount: 0, counts: statuses({ reversed: 1 }), depositing: 0 });
    // A depositing player completed a deposit in the range, even one a later event reversed: money follows the latest status.
    expect(await figures(8, 0)).toEqual({ amount: 0, counts: statuses({ reversed: 1 }), depositing: 1 });
  });

  it('the migration creating the transaction days builds the same next days and counts from the kept transactions (rolled back)', async () => {
    const rows = async (db: Db) =>
      JSON.stringify([
        await db('analytics_transactions')
          .where({ operator_id: alice.operator.operatorId })
          .orderBy(['currency', 'tx_key', 'day'])
          .select('currency', 'tx_key', db.raw('day::text'), db.raw('next_day::text')),
        await db('analytics_transaction_days')
          .where({ operator_id: alice.operator.operatorId })
          .where('txs', '<>', 0)
          .orderBy(['currency', 'day', 'next_day', 'type', 'status'])
          .select('currency', db.raw('day::text'), db.raw('next_day::text'), 'type', 'status', 'txs', db.raw('amount::float8')),
      ]);
    const kept = await rows(app.deps.db);
    expect(kept).toContain(`"day":"${day(6)}","next_day":"${day(3)}"`);
    expect(await readAfterRolledBack(app.deps.db, [unkeyTransactions, dropTransactionDays, createTransactionDays, rekeyTransactions], rows)).toEqual(kept);
  });
});

describe('a first deposit moved by an earlier one told later, over two passes (player p7 registered 9 days back, alone in days 9…6)', () => {
  const conversion = async (currency: string, from: number, to: number) => {
    const current = (await get(`/business?range=${day(from)}:${day(to)}&currency=${currency}`)).body.data.current;
    return [current.registrations, current.converted_players];
  };

  it('a GBP deposit on day 6 converts p7 in GBP; a EUR deposit dated day 8 sent afterwards moves the conversion to EUR on day 8', async () => {
    await registerOn(alice, { p7: 9 });
    await seedEvents(app, alice, [event('p7', 6, 'transaction', tx('deposit', 100, { currency: 'GBP' }))]);
    await pass();
    expect([await conversion('GBP', 9, 6), await conversion('GBP', 9, 7), await conversion('EUR', 9, 6)]).toEqual([
      [1, 1],
      [1, 0],
      [1, 0],
    ]);

    await seedEvents(app, alice, [event('p7', 8, 'transaction', tx('deposit', 200))]);
    await pass();
    expect([await conversion('GBP', 9, 6), await conversion('EUR', 9, 8), await conversion('EUR', 9, 9)]).toEqual([
      [1, 0],
      [1, 1],
      [1, 0],
    ]);
  });

  it('the migration creating the conversions builds the same counts from the kept first deposits (rolled back)', async () => {
    const rows = async (db: Db) =>
      JSON.stringify(
        await db('analytics_conversions')
          .where({ operator_id: alice.operator.operatorId })
          .where('players', '<>', 0)
          .orderBy(['registered_day', 'currency', 'ftd_day'])
          .select(db.raw('registered_day::text'), 'currency', db.raw('ftd_day::text'), db.raw('players::int')),
      );
    const kept = await rows(app.deps.db);
    expect(kept).toContain(`{"registered_day":"${day(9)}","currency":"EUR","ftd_day":"${day(8)}","players":1}`);
    expect(kept).not.toContain(`{"registered_day":"${day(9)}","currency":"GBP"`);
    expect(await readAfterRolledBack(app.deps.db, [dropConversions, createConversions], rows)).toEqual(kept);
  });

  it('erased after the passes, p7 stays a registration and is no longer converted: its deposits are redacted', async () => {
    expect((await alice.call('/entities/p7', { method: 'DELETE' })).status).toBe(200);
    await pass();
    expect(await conversion('EUR', 9, 8)).toEqual([1, 0]);
  });
});

describe('cost', () => {
  it('a player’s earlier completed deposits are found through the existing entity_events_counted_deposits_idx (its predicate is implied by the query’s)', async () => {
    const plan = await app.deps.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      const player = await trx('entities').where({ operator_id: alice.operator.operatorId, external_id: 'p1' }).first('id');
      const result = await trx.raw(
        `EXPLAIN SELECT 1 FROM entity_events e WHERE e.operator_id = ? AND e.entity_id = ? AND ${IS_DEPOSIT} AND e.data->'_redacted' IS NULL AND e.occurred_at < now()`,
        [alice.operator.operatorId, player.id],
      );
      return result.rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('Index Scan using entity_events_counted_deposits_idx');
  });
});
