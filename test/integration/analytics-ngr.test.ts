import { analytics, readAfterRolledBack } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { addMemberAndSignIn } from '../helpers/members';
import { ngrFigures } from '../../commands/analytics/ngrDefinition';
import { refreshAnalyticsViews } from '../../db/queries/analyticsRefresh';
import { down as dropJurisdictionDays, up as createJurisdictionDays } from '../../db/migrations/20261218090200_create_jurisdiction_days';
import { down as dropRegionRollups, up as createRegionRollups } from '../../db/migrations/20261219090000_create_region_rollups';

/**
 * NGR (issue 45): the operator's versioned definition and the figures of `GET /business`, computed by hand, answered
 * from the rollups and equal to the raw path's. June 2026
 * in EUR (previous period 2 – 31 May):
 * - m1 (jurisdiction MT): a round 10 000 / 6 000 (GGR 4 000), a completed bonus of 500 and a pending one of 300.
 * - u1 (jurisdiction `uk`, any case): a round 5 000 / 2 000 (GGR 3 000), a bonus of 1 000.
 * - x1 (ZZ, not listed): a round 1 000 / 0. n1 (none): a round 500 / 1 000 (GGR −500), a bonus of 200.
 * - m1 on 10 May: a round 100 / 0.
 * Definition v1: MT 5 %, UK 21 %, others 10 %, payment processing 3 % of GGR. Per jurisdiction: MT (4 000 − 500) × 5 % =
 * 175; UK (3 000 − 1 000) × 21 % = 420; the rest (1 000 − 500 − 200) × 10 % = 30; processing 7 500 × 3 % = 225;
 * NGR = 7 500 − 1 700 − 625 − 225 = 4 950. Then (version 2, no default rate) x1 moves to `mt`: MT (4 000 − 500 + 1 000)
 * × 5 % = 225, NGR 7 500 − 1 700 − 645 − 225 = 4 930; n1 is erased: GGR 8 000, bonus cost 1 500, processing 240, NGR 5 615.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;

const at = (date: string) => `${date}T12:00:00Z`;
const round = (date: string, bet: number, win: number) => ({
  eventType: 'game_activity',
  data: { game_id: 'g-1', bet_amount: bet, win_amount: win, currency: 'EUR', timestamp: at(date) },
});
const bonus = (date: string, amount: number, status = 'completed') => ({
  eventType: 'transaction',
  data: { type: 'bonus', amount, currency: 'EUR', status, timestamp: at(date) },
});
const V1 = {
  taxes: [
    { jurisdiction: 'MT', rate: 0.05 },
    { jurisdiction: 'UK', rate: 0.21 },
  ],
  defaultTaxRate: 0.1,
  otherDeductions: [{ name: 'payment processing', rate: 0.03 }],
};
const definition = (token: string | undefined, body?: unknown) => analytics(app, token, '/ngr-definition', body === undefined ? {} : { method: 'PUT', body });
/** `GET /business` (the rollups answer: a pass has caught up), after checking that the raw path gives the same NGR. */
async function business(client: DataClient = alice) {
  const response = await analytics(app, client.key, '/business?range=2026-06-01:2026-06-30&currency=EUR');
  const { range, previous_range: previous, refreshed_at: refreshedAt, ngr } = response.body.data;
  expect(refreshedAt).toEqual(expect.any(String));
  const raw = await ngrFigures(app.deps, { operatorId: client.operator.operatorId, currency: 'EUR', reportingCurrency: 'EUR' }, [range, previous]);
  expect({ definition_version: raw.version, current: raw.figures[0], previous: raw.figures[1] }).toEqual(ngr);
  return response;
}

async function send(
  client: DataClient,
  players: Record<string, { jurisdiction?: string; events: Array<{ eventType: string; data: Record<string, unknown> }> }>,
) {
  for (const [externalId, player] of Object.entries(players)) {
    const data = player.jurisdiction ? { jurisdiction: player.jurisdiction } : {};
    expect((await client.call('/entities', { body: { entityType: 'player', externalId, data } })).status).toBe(201);
    for (const body of player.events) expect((await client.call(`/entities/${externalId}/events`, { body })).status).toBe(201);
  }
}

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  await send(alice, {
    m1: {
      jurisdiction: 'MT',
      events: [round('2026-06-03', 10_000, 6_000), bonus('2026-06-04', 500), bonus('2026-06-05', 300, 'pending'), round('2026-05-10', 100, 0)],
    },
    u1: { jurisdiction: 'uk', events: [round('2026-06-06', 5_000, 2_000), bonus('2026-06-07', 1_000)] },
    x1: { jurisdiction: 'ZZ', events: [round('2026-06-08', 1_000, 0)] },
    n1: { events: [round('2026-06-09', 500, 1_000), bonus('2026-06-10', 200)] },
  });
  await send(bob, { b1: { jurisdiction: 'MT', events: [round('2026-06-03', 9_999, 0)] } });
  await refreshAnalyticsViews(app.deps.db);
}, 60_000);
afterAll(() => app.close());

describe('protection and errors', () => {
  it('401 without credentials; a Member may read the definition but not change it (403)', async () => {
    expect((await definition(undefined)).status).toBe(401);
    expect((await definition(undefined, V1)).status).toBe(401);
    const member = await addMemberAndSignIn(app.deps.db, app.url, alice.operator.operatorId, 'member');
    expect((await definition(member.accessToken)).status).toBe(200);
    const refused = await definition(member.accessToken, V1);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage the NGR definition' } });
  });

  it.each([
    ['a default rate of 1.5', { ...V1, defaultTaxRate: 1.5 }, 'defaultTaxRate'],
    ['a negative rate', { ...V1, taxes: [{ jurisdiction: 'MT', rate: -0.1 }] }, 'taxes.0.rate'],
    ['MT twice, in two cases', { ...V1, taxes: [...V1.taxes, { jurisdiction: 'mt', rate: 0.1 }] }, 'taxes'],
    ['an unknown field', { ...V1, vat: 0.2 }, 'body'],
  ])('%s is 400 VALIDATION_FAILED naming %s, and saves nothing', async (_label, body, field) => {
    const response = await definition(alice.key, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
    expect(await app.deps.db('ngr_definitions').where({ operator_id: alice.operator.operatorId }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });
});

describe('versions and figures computed by hand', () => {
  it('before any definition: version null, NGR = GGR − bonus cost (the pending bonus not counted)', async () => {
    const response = await business();
    expect(response.status).toBe(200);
    expect(response.body.data.ngr.definition_version).toBeNull();
    expect(response.body.data.ngr.current).toMatchObject({ ggr: 7_500, bonus_cost: 1_700, taxes: 0, other_deductions: 0, ngr: 5_800 });
  });

  it('version 1: taxes per listed jurisdiction, the default rate for the rest, other deductions on GGR; audited', async () => {
    const saved = await definition(alice.key, V1);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ version: 1, definition: V1, created_by: expect.stringMatching(/^key:/) });
    const response = await business();
    expect(response.body.data.ngr).toEqual({
      definition_version: 1,
      current: {
        ggr: 7_500,
        bonus_cost: 1_700,
        taxes: 625,
        other_deductions: 225,
        ngr: 4_950,
        taxes_by_jurisdiction: [
          { jurisdiction: 'MT', rate: 0.05, taxable: 3_500, tax: 175 },
          { jurisdiction: 'UK', rate: 0.21, taxable: 2_000, tax: 420 },
          { jurisdiction: '', rate: 0.1, taxable: 300, tax: 30 },
        ],
        deductions: [{ name: 'payment processing', rate: 0.03, amount: 225 }],
      },
      previous: {
        ggr: 100,
        bonus_cost: 0,
        taxes: 5,
        other_deductions: 3,
        ngr: 92,
        taxes_by_jurisdiction: [{ jurisdiction: 'MT', rate: 0.05, taxable: 100, tax: 5 }],
        deductions: [{ name: 'payment processing', rate: 0.03, amount: 3 }],
      },
    });
    const audit = await app.deps
      .db('audit_events')
      .where({ operator_id: alice.operator.operatorId, action: 'settings.updated' })
      .whereRaw("changed_fields @> '{ngrDefinition}'");
    expect(audit.map((event) => event.summary)).toEqual(['Changed ngrDefinition; NGR definition version 1']);
  });

  it('version 2 is a new row, version 1 stays; the figures name the version they used', async () => {
    const saved = await definition(alice.key, { ...V1, defaultTaxRate: 0 });
    expect(saved.body.data.version).toBe(2);
    const listed = await definition(alice.key);
    expect(listed.body.data.current).toMatchObject({ version: 2, definition: { defaultTaxRate: 0 } });
    expect(listed.body.data.versions.map((version: { version: number }) => version.version)).toEqual([2, 1]);
    const response = await business();
    expect(response.body.data.ngr).toMatchObject({ definition_version: 2, current: { taxes: 595, ngr: 4_980 } });
  });

  it('a player whose jurisdiction changes moves with their history at the next pass; an erased player leaves', async () => {
    const moved = await alice.call('/entities', { body: { entityType: 'player', externalId: 'x1', data: { jurisdiction: 'mt' } } });
    expect(moved.status).toBe(200);
    expect(await app.deps.db('analytics_player_key_changes').where({ operator_id: alice.operator.operatorId }).count()).toEqual([{ count: '1' }]);
    await refreshAnalyticsViews(app.deps.db);
    expect(await app.deps.db('analytics_player_key_changes').where({ operator_id: alice.operator.operatorId }).count()).toEqual([{ count: '0' }]);
    const after = (await business()).body.data.ngr.current;
    expect(after).toMatchObject({ ggr: 7_500, bonus_cost: 1_700, taxes: 645, ngr: 4_930 });
    expect(after.taxes_by_jurisdiction).toEqual([
      { jurisdiction: 'MT', rate: 0.05, taxable: 4_500, tax: 225 },
      { jurisdiction: 'UK', rate: 0.21, taxable: 2_000, tax: 420 },
      { jurisdiction: '', rate: 0, taxable: 0, tax: 0 },
    ]);
    expect((await alice.call('/entities/n1', { method: 'DELETE' })).status).toBe(200);
    await refreshAnalyticsViews(app.deps.db);
    const erased = (await business()).body.data.ngr.current;
    expect(erased).toMatchObject({ ggr: 8_000, bonus_cost: 1_500, taxes: 645, other_deductions: 240, ngr: 5_615 });
    expect(erased.taxes_by_jurisdiction.map((entry: { jurisdiction: string }) => entry.jurisdiction)).toEqual(['MT', 'UK']);
  });

  it('the migration creating the jurisdiction days builds the same rows from the player-days (rolled back)', async () => {
    const rows = async (db: typeof app.deps.db) =>
      JSON.stringify(
        await db('analytics_jurisdiction_days')
          .where({ operator_id: alice.operator.operatorId })
          .whereRaw('(ggr <> 0 OR bonus <> 0)')
          .orderBy(['currency', 'day', 'jurisdiction'])
          .select('currency', 'jurisdiction', db.raw('day::text'), db.raw('ggr::float8'), db.raw('bonus::float8')),
      );
    const kept = await rows(app.deps.db);
    expect(kept).toContain('"jurisdiction":"MT"');
    const rebuilt = await readAfterRolledBack(app.deps.db, [dropRegionRollups, dropJurisdictionDays, createJurisdictionDays, createRegionRollups], rows);
    expect(rebuilt).toEqual(kept);
  });

  it('operator B has no definition and sees only its own GGR', async () => {
    expect((await definition(bob.key)).body.data).toEqual({ current: null, versions: [] });
    const response = await business(bob);
    expect(response.body.data.ngr).toMatchObject({ definition_version: null, current: { ggr: 9_999, ngr: 9_999 } });
  });
});
