import { analytics, dayAgo as day, earlierTransactionsEnded, readAfterRolledBack, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, waitForJob, type DataClient } from '../helpers/data';
import { lastDays, type DayRange } from '../../core/analyticsParams';
import { businessFigures } from '../../db/queries/analyticsBusiness';
import { viewBusinessFigures } from '../../db/queries/analyticsBusinessView';
import { rawKpis, rawRevenue } from '../../db/queries/analyticsRaw';
import { runRollupPass as runPass } from '../../db/queries/analyticsRollup';
import { foldBatch } from '../../db/queries/analyticsRollupBatch';
import { down as dropPlayedSeries, up as createPlayedSeries } from '../../db/migrations/20261218090100_create_played_series';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';
import { viewKpis, viewRevenue } from '../../db/queries/analyticsViews';

/**
 * Distinct players kept by the rollup pass (issue 45, docs/analytics.md "Distinct players"): a player in a range on
 * several days counts once; a late day landing between or before known days moves its successor's count, so any range
 * stays exact; the figures come from the kept counts, not from per-player days; erasure, re-runs, a crashed batch and
 * another operator's players leave them exact. The raw path is the reference on a seeded random history (`/kpis`,
 * `/revenue`, and `/business`'s players who played in a currency).
 */
let app: TestApp;
let dora: DataClient;
let eve: DataClient;
let fay: DataClient;

const DAY_MS = 86_400_000;
const WINDOW = 40;
const addDays = (iso: string, days: number): string => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The Monday of the ISO week holding the day `daysAgo` back. */
const mondayOf = (daysAgo: number): string => {
  const date = new Date(Date.parse(`${day(daysAgo)}T00:00:00Z`));
  return addDays(day(daysAgo), -((date.getUTCDay() + 6) % 7));
};
const W = mondayOf(35);
/** Noon of the day, or a minute ago for today before noon (ingest refuses more than 5 minutes ahead). */
const at = (iso: string): string => new Date(Math.min(Date.parse(`${iso}T12:00:00Z`), Date.now() - 60_000)).toISOString();
const deposit = (iso: string, amount: number, currency = 'EUR') => ({
  eventType: 'transaction',
  data: { type: 'deposit', amount, currency, status: 'completed', provider: 'stripe', timestamp: at(iso) },
});
const round = (iso: string, bet: number, currency = 'EUR') => ({
  eventType: 'game_activity',
  data: { game_id: 'starburst', game_name: 'Starburst', bet_amount: bet, win_amount: 0, currency, timestamp: at(iso) },
});
const scopeOf = (client: DataClient, currency = 'EUR'): AnalyticsScope => ({ operatorId: client.operator.operatorId, currency, reportingCurrency: 'EUR' });
const SEVEN = () => lastDays(7, new Date());

async function send(client: DataClient, events: Array<{ externalId: string; eventType: string; data: Record<string, unknown> }>): Promise<void> {
  for (let index = 0; index < events.length; index += 100) {
    const submitted = await client.call('/batch/events', { body: events.slice(index, index + 100) });
    expect(submitted.status).toBe(202);
    const job = await waitForJob(client, submitted.body.data.jobId);
    expect(job.output).toMatchObject({ failed: 0, errors: [] });
  }
}

beforeAll(async () => {
  app = await startTestApp();
  [dora, eve, fay] = await Promise.all([dataClient(app), dataClient(app), dataClient(app)]);
  await seedPlayers(dora, [{ externalId: 'a1' }, { externalId: 'a2' }, { externalId: 'a3' }]);
  await seedPlayers(eve, [{ externalId: 'a1' }, { externalId: 'a2' }]);
  await seedPlayers(
    fay,
    ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map((externalId) => ({ externalId })),
  );
}, 120_000);
afterAll(() => app.close());

/** `depositing_players` of /kpis, which the API shows only through `avg_deposit` (deposits ÷ depositing players): read back. */
/** A pass after every transaction begun before it has ended (another suite's pass can hold the bound back). */
async function runRollupPass(db: typeof app.deps.db, options?: Parameters<typeof runPass>[1]) {
  await earlierTransactionsEnded(db);
  return runPass(db, options);
}

async function depositingPlayers(client: DataClient, range: DayRange): Promise<number> {
  const kpis = await viewKpis(app.deps.db, scopeOf(client), range, SEVEN());
  return kpis.avg_deposit > 0 ? Math.round(kpis.total_deposits / kpis.avg_deposit) : 0;
}

describe('a designed history, computed by hand', () => {
  beforeAll(async () => {
    await send(dora, [
      { externalId: 'a1', ...deposit(W, 100) },
      { externalId: 'a1', ...deposit(addDays(W, 2), 100) },
      { externalId: 'a2', ...round(addDays(W, 1), 40) },
      { externalId: 'a2', ...deposit(addDays(W, 2), 300, 'USD') },
      { externalId: 'a3', ...deposit(addDays(W, 7), 100) },
      { externalId: 'a3', ...deposit(addDays(W, 11), 100) },
    ]);
    await send(eve, [
      { externalId: 'a1', ...deposit(W, 100) },
      { externalId: 'a2', ...deposit(addDays(W, 1), 100) },
      { externalId: 'a2', ...deposit(addDays(W, 9), 100) },
    ]);
    await runRollupPass(app.deps.db);
  });

  it('a player active on two days of a week counts once in that week; activity in any currency, deposits in one', async () => {
    const week = (await analytics(app, dora.key, `/revenue?period=weekly&range=${W}:${addDays(W, 6)}`)).body.data;
    expect(week.refreshed_at).not.toBeNull();
    expect(week.rows).toEqual([{ date: W, total_ggr: 40, total_deposits: 200, depositing_players: 1, active_players: 2 }]);
    const usd = (await analytics(app, dora.key, `/revenue?period=weekly&range=${W}:${addDays(W, 6)}&currency=USD`)).body.data.rows;
    expect(usd).toEqual([{ date: W, total_ggr: 0, total_deposits: 300, depositing_players: 1, active_players: 2 }]);
    const days = (await analytics(app, dora.key, `/revenue?range=${W}:${addDays(W, 2)}`)).body.data.rows;
    expect(days.map((row: { depositing_players: number; active_players: number }) => [row.depositing_players, row.active_players])).toEqual([
      [1, 1],
      [0, 1],
      [1, 2],
    ]);
    expect(await depositingPlayers(dora, { start: W, end: addDays(W, 11) })).toBe(2);
  });

  it('a late day between two known ones counts the player once in a range holding both', async () => {
    await send(dora, [{ externalId: 'a3', ...deposit(addDays(W, 9), 100) }]);
    await runRollupPass(app.deps.db);
    expect(await depositingPlayers(dora, { start: addDays(W, 8), end: addDays(W, 11) })).toBe(1);
    expect(await depositingPlayers(dora, { start: addDays(W, 9), end: addDays(W, 9) })).toBe(1);
    expect(await depositingPlayers(dora, { start: addDays(W, 10), end: addDays(W, 11) })).toBe(1);
    expect(await depositingPlayers(dora, { start: addDays(W, 8), end: addDays(W, 8) })).toBe(0);
    const week = (await analytics(app, dora.key, `/revenue?period=weekly&range=${addDays(W, 7)}:${addDays(W, 13)}`)).body.data.rows;
    expect(week).toEqual([{ date: addDays(W, 7), total_ggr: 0, total_deposits: 300, depositing_players: 1, active_players: 1 }]);
  });

  it('a late day before the first known one moves that first day’s count', async () => {
    await send(dora, [{ externalId: 'a3', ...deposit(addDays(W, 3), 100) }]);
    await runRollupPass(app.deps.db);
    expect(await depositingPlayers(dora, { start: addDays(W, 3), end: addDays(W, 7) })).toBe(1);
    expect(await depositingPlayers(dora, { start: addDays(W, 4), end: addDays(W, 7) })).toBe(1);
    expect(await depositingPlayers(dora, { start: W, end: addDays(W, 13) })).toBe(2);
    const weeks = (await analytics(app, dora.key, `/revenue?period=weekly&range=${W}:${addDays(W, 13)}`)).body.data.rows;
    expect(weeks).toEqual([
      { date: W, total_ggr: 40, total_deposits: 300, depositing_players: 2, active_players: 3 },
      { date: addDays(W, 7), total_ggr: 0, total_deposits: 300, depositing_players: 1, active_players: 1 },
    ]);
  });

  it('the figures come from the kept counts: per-player days deleted (rolled back), they stay the same', async () => {
    const range = { start: W, end: addDays(W, 13) };
    const before = await viewRevenue(app.deps.db, scopeOf(dora), range, 'week');
    await expect(
      app.deps.db.transaction(async (trx) => {
        await trx('analytics_player_days').where({ operator_id: dora.operator.operatorId }).delete();
        expect(await viewRevenue(trx, scopeOf(dora), range, 'week')).toEqual(before);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
  });

  it('operator B’s players on the same days never count for A, nor A’s for B', async () => {
    expect(await depositingPlayers(eve, { start: W, end: addDays(W, 13) })).toBe(2);
    expect(await depositingPlayers(eve, { start: addDays(W, 2), end: addDays(W, 13) })).toBe(1);
    const week = (await analytics(app, eve.key, `/revenue?period=weekly&range=${W}:${addDays(W, 6)}`)).body.data.rows;
    expect(week).toEqual([{ date: W, total_ggr: 0, total_deposits: 200, depositing_players: 2, active_players: 2 }]);
  });
});

/** A seeded generator (the same history on every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('a random history delivered late and out of order: every range agrees with the raw tables', () => {
  const next = random(45);
  const players = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'];
  const wave = (count: number) =>
    Array.from({ length: count }, () => {
      const externalId = players[Math.floor(next() * players.length)]!;
      const iso = day(Math.floor(next() * WINDOW));
      const currency = next() < 0.2 ? 'USD' : 'EUR';
      return { externalId, ...(next() < 0.5 ? deposit(iso, 10, currency) : round(iso, 10, currency)) };
    });

  /** Every range within the window on both paths: KPIs for each (start, end), weekly and monthly revenue to today. */
  async function expectAgreement(): Promise<void> {
    const db = app.deps.db;
    for (const currency of ['EUR', 'USD']) {
      const scope = scopeOf(fay, currency);
      for (let from = WINDOW; from >= 0; from -= 1) {
        for (let to = from; to >= 0; to -= 3) {
          const range = { start: day(from), end: day(to) };
          expect([range, await viewKpis(db, scope, range, SEVEN())]).toEqual([range, await rawKpis(db, scope, range, SEVEN())]);
          // /business's players who played in the currency (its played series), on a quarter of the starts.
          if (from % 4 === 0)
            expect([range, (await viewBusinessFigures(db, scope, range)).active_players]).toEqual([
              range,
              (await businessFigures(db, scope, range)).active_players,
            ]);
        }
        const toToday = { start: day(from), end: day(0) };
        for (const unit of ['day', 'week', 'month'] as const) {
          expect([toToday, unit, await viewRevenue(db, scope, toToday, unit)]).toEqual([toToday, unit, await rawRevenue(db, scope, toToday, unit)]);
        }
      }
    }
    const negative = await db('analytics_player_gaps').where('players', '<', 0).count();
    expect(negative).toEqual([{ count: '0' }]);
  }

  it('after three waves, each of days before and between those already counted', async () => {
    await send(fay, wave(80));
    await runRollupPass(app.deps.db);
    await send(fay, wave(80));
    await runRollupPass(app.deps.db, { batchEvents: 7 });
    await send(fay, wave(80));
    await runRollupPass(app.deps.db);
    await expectAgreement();
  }, 120_000);

  it('after an erasure, a crashed batch and re-runs: agreement, no chain left for the erased player, no row changed by a re-run', async () => {
    expect((await fay.call('/entities/f2', { method: 'DELETE' })).status).toBe(200);
    players.splice(players.indexOf('f2'), 1);
    await send(fay, wave(40));
    const crash = app.deps.db.transaction(async (trx) => {
      const state = await trx('analytics_rollup_state').where({ id: 1 }).forUpdate().first('cursor_xid', 'cursor_id');
      await foldBatch(trx, { xid: String(state.cursor_xid), id: state.cursor_id }, '9223372036854775807', 50_000);
      throw new Error('crash before commit');
    });
    await expect(crash).rejects.toThrow('crash before commit');
    await runRollupPass(app.deps.db);
    await expectAgreement();
    const f2 = await app.deps.db('entities').where({ operator_id: fay.operator.operatorId, external_id: 'f2' }).first('id');
    expect(await app.deps.db('analytics_player_chain').where({ operator_id: fay.operator.operatorId, entity_id: f2.id }).count()).toEqual([{ count: '0' }]);
    const rows = async () =>
      JSON.stringify([
        await app.deps.db('analytics_player_chain').where({ operator_id: fay.operator.operatorId }).orderBy(['entity_id', 'series', 'day']),
        await app.deps.db('analytics_player_gaps').where({ operator_id: fay.operator.operatorId }).orderBy(['series', 'day', 'prev_day']),
      ]);
    const before = await rows();
    await runRollupPass(app.deps.db);
    await runRollupPass(app.deps.db);
    expect(await rows()).toEqual(before);
  }, 120_000);

  it('the migration creating the played series builds the same chains and gaps from the player-days (rolled back)', async () => {
    const played = async (db: typeof app.deps.db) =>
      JSON.stringify([
        await db('analytics_player_chain')
          .where({ operator_id: fay.operator.operatorId })
          .where('series', 'like', 'played-in-currency:%')
          .orderBy(['entity_id', 'series', 'day']),
        await db('analytics_player_gaps')
          .where({ operator_id: fay.operator.operatorId })
          .where('series', 'like', 'played-in-currency:%')
          .where('players', '>', 0)
          .orderBy(['series', 'day', 'prev_day']),
      ]);
    const kept = await played(app.deps.db);
    expect(kept).toContain('played-in-currency:USD');
    const rebuilt = await readAfterRolledBack(
      app.deps.db,
      [dropPlayedSeries, async (trx) => expect(await played(trx)).toBe('[[],[]]'), createPlayedSeries],
      played,
    );
    expect(rebuilt).toEqual(kept);
  });
});
