import { analytics, readAfterRolledBack, seedPlayers } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { isoDay } from '../../core/analyticsParams';
import { NgrDefinitionSchema, NO_DEDUCTIONS } from '../../core/ngrDefinition';
import { rawCohortFigures, type CohortQuery } from '../../db/queries/analyticsCohorts';
import { viewCohortFigures } from '../../db/queries/analyticsCohortsView';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { foldBatch } from '../../db/queries/analyticsRollupBatch';
import { down as dropBonusColumn, up as addBonusColumn } from '../../db/migrations/20261218090000_add_cohort_bonus_cost';
import { down as dropMemberFigures, up as addMemberFigures } from '../../db/migrations/20261218090300_add_cohort_member_figures';
import { down as dropCohortDays, up as createCohortDays } from '../../db/migrations/20261222090100_create_cohort_days';
import type { AnalyticsScope } from '../../db/queries/analyticsTypes';

/**
 * Cohorts from the rollups (issue 45, docs/analytics.md "Cohorts"): the kept first deposit moves to an earlier deposit
 * that arrives late, exactly once; a round before the FTD (in the FTD's batch, or arriving later) stays out of GGR and
 * comes back in when the FTD moves before it; an erased player leaves; a crashed batch and re-run passes change
 * nothing twice. After every wave the API (rollups) answers the hand-computed cohort and the raw path agrees. EUR, May 2026:
 * - wave 1: x deposits 300 on 05-10 12:00, plays 100/0 at 10:00 (before: not GGR), 50/0 at 13:00, 20/0 on 05-11 (D1),
 *   gets a bonus of 15 at 11:30 (before: no bonus cost) and one of 5 at 14:00; w deposits 500 on 05-20; z deposits 100
 *   on 05-12 and plays 10/0 on 05-13 (D1). No NGR definition: NGR = GGR − bonus cost.
 * - wave 2: x's round 40/0 at 05-10 11:00 and bonus of 8 at 10:30 arrive (before the FTD), and a round 30/0 on 05-17
 *   (D7, after its FTD: added to the kept member figures); w's deposit of 200 on 05-15 arrives (now its FTD); z is erased.
 * - wave 3: x's deposit of 90 at 05-10 09:00 arrives: the FTD moves before every round and bonus of that day.
 * - wave 4: x's USD deposit of 60 on 04-28 arrives: x leaves May's EUR cohort for April's USD one.
 * - wave 5: w plays 100/0 on 05-16 and moves to jurisdiction MT: its cohort day moves to MT's NGR group.
 * The kept cohort days and last days are checked by hand, and against the migration's build from the members.
 */
let app: TestApp;
let dora: DataClient;
let erin: DataClient;

const at = (date: string, time = '12:00') => `${date}T${time}:00Z`;
const deposit = (date: string, amount: number, time?: string, currency = 'EUR') => ({
  eventType: 'transaction',
  data: { type: 'deposit', amount, currency, status: 'completed', provider: 'stripe', timestamp: at(date, time) },
});
const round = (date: string, bet: number, win: number, time?: string) => ({
  eventType: 'game_activity',
  data: { game_id: 'g-1', game_name: 'Book', bet_amount: bet, win_amount: win, currency: 'EUR', timestamp: at(date, time) },
});
const bonus = (date: string, amount: number, time: string) => ({
  eventType: 'transaction',
  data: { type: 'bonus', amount, currency: 'EUR', status: 'completed', timestamp: at(date, time) },
});
const kept = (matured: number, retained: number, rate: number | null) => ({ matured, retained, rate });
const MAY = '/cohorts?range=2026-05-01:2026-05-31&currency=EUR';

async function send(client: DataClient, history: Record<string, Array<{ eventType: string; data: Record<string, unknown> }>>): Promise<void> {
  for (const [externalId, events] of Object.entries(history))
    for (const body of events) {
      const response = await client.call(`/entities/${externalId}/events`, { body });
      if (response.status !== 201) throw new Error(`event failed: ${response.text}`);
    }
}

const query = (start: string, end: string): CohortQuery => ({
  range: { start, end },
  grain: 'month',
  asOf: isoDay(new Date()),
  churnDays: 30,
  ngr: NO_DEDUCTIONS,
});
const scopeOf = (client: DataClient, currency = 'EUR'): AnalyticsScope => ({ operatorId: client.operator.operatorId, currency, reportingCurrency: 'EUR' });

/** The API's May cohort (rollups: a pass has completed), after checking the raw path gives the same figures. */
async function may(): Promise<unknown> {
  await refreshAnalyticsViews(app.deps.db);
  const response = await analytics(app, dora.key, MAY);
  expect(response.status).toBe(200);
  expect(await rawCohortFigures(app.deps.db, scopeOf(dora), query('2026-05-01', '2026-05-31'))).toEqual(response.body.data.cohorts);
  return response.body.data.cohorts;
}
const perPlayer = (amount: number, players: number) => (players > 0 ? Math.round((amount / players) * 100) / 100 : 0);
const cohort = (players: number, ftdAmount: number, d1: [number, number, number | null], ggr: number, bonusCost: number, churned: number, d7 = 0) => [
  {
    cohort: '2026-05-01',
    players,
    ftd_amount: ftdAmount,
    retention: {
      d1: kept(...d1),
      d7: kept(players, d7, players > 0 ? Math.round((d7 / players) * 10_000) / 10_000 : null),
      d30: kept(players, 0, players > 0 ? 0 : null),
    },
    ggr,
    ggr_per_player: perPlayer(ggr, players),
    bonus_cost: bonusCost,
    ngr: ggr - bonusCost,
    ngr_per_player: perPlayer(ggr - bonusCost, players),
    churned_players: churned,
  },
];
/** Dora's kept first deposits, by player. */
async function firstDeposits(): Promise<unknown[]> {
  const result = await app.deps.db.raw(
    `SELECT en.external_id, f.amount::float8 AS amount, f.pre_ftd_ggr::float8 AS pre, f.pre_ftd_bonus::float8 AS pre_bonus, f.day::text AS day, f.currency
       FROM analytics_first_deposits f JOIN entities en ON en.id = f.entity_id WHERE f.operator_id = ? ORDER BY en.external_id`,
    [dora.operator.operatorId],
  );
  return result.rows;
}

beforeAll(async () => {
  app = await startTestApp();
  [dora, erin] = await Promise.all([dataClient(app), dataClient(app)]);
  await seedPlayers(dora, [{ externalId: 'x' }, { externalId: 'w' }, { externalId: 'z' }]);
  await seedPlayers(erin, [{ externalId: 'x' }]);
  await send(erin, { x: [deposit('2026-05-10', 7_777)] });
}, 60_000);
afterAll(() => app.close());

it('401 without credentials', async () => {
  const missing = await analytics(app, undefined, MAY);
  expect(missing.status).toBe(401);
  expect(missing.body).toEqual({ success: false, error: { code: 'UNAUTHORIZED', message: 'Missing API key or session token' } });
});

it('wave 1: the FTD with a round before it in the same batch', async () => {
  await send(dora, {
    x: [
      round('2026-05-10', 100, 0, '10:00'),
      bonus('2026-05-10', 15, '11:30'),
      deposit('2026-05-10', 300),
      round('2026-05-10', 50, 0, '13:00'),
      bonus('2026-05-10', 5, '14:00'),
      round('2026-05-11', 20, 0),
    ],
    w: [deposit('2026-05-20', 500)],
    z: [deposit('2026-05-12', 100), round('2026-05-13', 10, 0)],
  });
  expect(await may()).toEqual(cohort(3, 900, [3, 2, 0.6667], 80, 5, 3));
});

it('wave 2: a late round before the FTD stays out of GGR, a late earlier deposit becomes the FTD once, an erased player leaves; a crashed batch and re-runs count nothing twice', async () => {
  await send(dora, { x: [round('2026-05-10', 40, 0, '11:00'), bonus('2026-05-10', 8, '10:30'), round('2026-05-17', 30, 0)], w: [deposit('2026-05-15', 200)] });
  expect((await dora.call('/entities/z', { method: 'DELETE' })).status).toBe(200);
  await app.deps.db
    .transaction(async (trx) => {
      const state = await trx('analytics_rollup_state').where({ id: 1 }).forUpdate().first('cursor_xid', 'cursor_id');
      const bound = (await trx.raw('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin')).rows[0].xmin as string;
      await foldBatch(trx, { xid: String(state.cursor_xid), id: state.cursor_id }, bound, 50_000);
      throw new Error('crash');
    })
    .catch((error: Error) => expect(error.message).toBe('crash'));
  expect(await may()).toEqual(cohort(2, 500, [2, 1, 0.5], 100, 5, 2, 1));
  const rows = await firstDeposits();
  expect(rows).toEqual([
    { external_id: 'w', amount: 200, pre: 0, pre_bonus: 0, day: '2026-05-15', currency: 'EUR' },
    { external_id: 'x', amount: 300, pre: 140, pre_bonus: 23, day: '2026-05-10', currency: 'EUR' },
  ]);
  await refreshAnalyticsViews(app.deps.db);
  await refreshAnalyticsViews(app.deps.db);
  expect(await firstDeposits()).toEqual(rows);
});

it('the migrations adding pre_ftd_bonus and the member figures fill them from what the passes have read (rolled back: the suites beside keep the columns)', async () => {
  const members = async (db: typeof app.deps.db) =>
    (
      await db.raw(
        `SELECT en.external_id, f.pre_ftd_bonus::float8 AS pre_bonus, f.last_active_day::text AS last_day, f.retained_d1 AS d1, f.retained_d7 AS d7,
                f.retained_d30 AS d30, f.ggr_from_ftd_day::float8 AS ggr, f.bonus_from_ftd_day::float8 AS bonus
           FROM analytics_first_deposits f JOIN entities en ON en.id = f.entity_id WHERE f.operator_id = ? ORDER BY en.external_id`,
        [dora.operator.operatorId],
      )
    ).rows;
  const kept = await members(app.deps.db);
  expect(kept).toEqual([
    { external_id: 'w', pre_bonus: 0, last_day: '2026-05-20', d1: false, d7: false, d30: false, ggr: 0, bonus: 0 },
    { external_id: 'x', pre_bonus: 23, last_day: '2026-05-17', d1: true, d7: true, d30: false, ggr: 240, bonus: 28 },
  ]);
  const rebuilt = await readAfterRolledBack(app.deps.db, [dropMemberFigures, dropBonusColumn, addBonusColumn, addMemberFigures], members);
  expect(rebuilt).toEqual(kept);
});

it('wave 3: an FTD moving before every round and bonus of its day brings them into GGR and bonus cost', async () => {
  await send(dora, { x: [deposit('2026-05-10', 90, '09:00')] });
  expect(await may()).toEqual(cohort(2, 290, [2, 1, 0.5], 240, 28, 2, 1));
});

it('wave 4: an earlier FTD in USD moves the player to that currency and month', async () => {
  await send(dora, { x: [deposit('2026-04-28', 60, '12:00', 'USD')] });
  expect(await may()).toEqual(cohort(1, 200, [1, 0, 0], 0, 0, 1));
  const april = await analytics(app, dora.key, '/cohorts?range=2026-04-01:2026-04-30&currency=USD');
  expect(april.body.data.cohorts).toEqual([
    {
      cohort: '2026-04-01',
      players: 1,
      ftd_amount: 60,
      retention: { d1: kept(1, 0, 0), d7: kept(1, 0, 0), d30: kept(1, 0, 0) },
      ggr: 0,
      ggr_per_player: 0,
      bonus_cost: 0,
      ngr: 0,
      ngr_per_player: 0,
      churned_players: 1,
    },
  ]);
  expect(april.body.data.ngr_definition_version).toBeNull();
  expect(await viewCohortFigures(app.deps.db, scopeOf(dora, 'USD'), query('2026-04-01', '2026-04-30'))).toEqual(april.body.data.cohorts);
});

/** Dora's kept cohort days and last days, rows with any figure. */
async function cohortDays(db: typeof app.deps.db): Promise<unknown[]> {
  const days = await db.raw(
    `SELECT currency, ftd_day::text, jurisdiction, players::int, ftd_amount::float8, ggr::float8, bonus_cost::float8,
            retained_d1::int AS d1, retained_d7::int AS d7, retained_d30::int AS d30
       FROM analytics_cohort_days
      WHERE operator_id = ? AND (players <> 0 OR ftd_amount <> 0 OR ggr <> 0 OR bonus_cost <> 0 OR retained_d1 <> 0 OR retained_d7 <> 0 OR retained_d30 <> 0)
      ORDER BY 1, 2, 3`,
    [dora.operator.operatorId],
  );
  const lastDays = await db.raw(
    `SELECT currency, ftd_day::text, last_day::text, players::int FROM analytics_cohort_last_days WHERE operator_id = ? AND players <> 0 ORDER BY 1, 2, 3`,
    [dora.operator.operatorId],
  );
  return [...days.rows, ...lastDays.rows];
}

it('wave 5: a member moving jurisdiction moves its cohort day to that NGR group; the migration builds the same kept rows (rolled back)', async () => {
  await send(dora, { w: [round('2026-05-16', 100, 0)] });
  expect((await dora.call('/entities', { body: { entityType: 'player', externalId: 'w', data: { jurisdiction: 'mt' } } })).status).toBe(200);
  expect(await may()).toEqual(cohort(1, 200, [1, 1, 1], 100, 0, 1));
  const kept = await cohortDays(app.deps.db);
  expect(kept).toEqual([
    { currency: 'EUR', ftd_day: '2026-05-15', jurisdiction: 'MT', players: 1, ftd_amount: 200, ggr: 100, bonus_cost: 0, d1: 1, d7: 0, d30: 0 },
    { currency: 'USD', ftd_day: '2026-04-28', jurisdiction: '', players: 1, ftd_amount: 60, ggr: 0, bonus_cost: 0, d1: 0, d7: 0, d30: 0 },
    { currency: 'EUR', ftd_day: '2026-05-15', last_day: '2026-05-20', players: 1 },
    { currency: 'USD', ftd_day: '2026-04-28', last_day: '2026-04-28', players: 1 },
  ]);
  expect(await readAfterRolledBack(app.deps.db, [dropCohortDays, createCohortDays], cohortDays)).toEqual(kept);
  const taxed = { ...query('2026-05-01', '2026-05-31'), ngr: NgrDefinitionSchema.parse({ taxes: [{ jurisdiction: 'MT', rate: 0.2 }], defaultTaxRate: 0.1 }) };
  const rollups = await viewCohortFigures(app.deps.db, scopeOf(dora), taxed);
  expect(rollups).toEqual([expect.objectContaining({ ggr: 100, ngr: 80 })]);
  expect(await rawCohortFigures(app.deps.db, scopeOf(dora), taxed)).toEqual(rollups);
});

it('operator B sees its own player only', async () => {
  const response = await analytics(app, erin.key, MAY);
  expect(response.body.data.cohorts).toEqual([expect.objectContaining({ players: 1, ftd_amount: 7_777, ggr: 0 })]);
});
