import { analytics, dayAgo as day } from '../helpers/analytics';
import { startTestApp, type TestApp } from '../helpers/app';
import { dataClient, type DataClient } from '../helpers/data';
import { PLAYERS_NOW } from '../../db/queries/analyticsSaferGambling';

/**
 * Safer-gambling figures (issue 45, `GET /safer-gambling`), computed by hand. Players of A:
 * - s1 self-excluded with a deposit limit of 5 000; s2 cooling off; s3 with status `excluded` and a session limit of 60;
 *   s4 with a deposit limit of 0 (no limit); s5 with no compliance state; s6 self-excluded, then erased; s7 with status
 *   `excluded` and no compliance state.
 * The gate's decisions of A in the last 30 days: self_excluded ×2, no_consent ×1, allowed ×3; 40 days ago
 * self_excluded ×5. Harm indicators of A in the range: deposit_velocity ×2 for s1 and ×1 for s2,
 * deposit_after_reversed_withdrawal ×1 for s1; 40 days ago one more. Operator B: cooling_off ×4 decisions, one indicator.
 */
let app: TestApp;
let alice: DataClient;
let bob: DataClient;
const DAY_MS = 86_400_000;

async function player(client: DataClient, externalId: string, data: Record<string, unknown>, compliance?: Record<string, unknown>): Promise<string> {
  const created = await client.call('/entities', { body: { entityType: 'player', externalId, data } });
  expect(created.status).toBe(201);
  if (compliance) expect((await client.call(`/entities/${externalId}/state/compliance`, { method: 'PUT', body: { value: compliance } })).status).toBe(200);
  const row = await app.deps.db('entities').where({ operator_id: client.operator.operatorId, external_id: externalId }).first('id');
  return row.id as string;
}

function decisions(client: DataClient, rule: string, count: number, daysAgo: number) {
  return Array.from({ length: count }, (_, index) => ({
    operator_id: client.operator.operatorId,
    recorded_at: new Date(Date.now() - daysAgo * DAY_MS),
    automation_id: 'wf_1',
    automation_version: 1,
    run_id: `run-${rule}-${daysAgo}-${index}`,
    node_id: 'email',
    action_type: 'action.send_email',
    purpose: 'marketing',
    rule,
    player_id: null,
    state_hash: '0'.repeat(64),
  }));
}

const indicator = (client: DataClient, entityId: string, name: string, source: string, daysAgo: number) => ({
  operator_id: client.operator.operatorId,
  entity_id: entityId,
  indicator: name,
  source_event_id: source,
  details: {},
  fired_at: new Date(Date.now() - daysAgo * DAY_MS),
});

beforeAll(async () => {
  app = await startTestApp();
  [alice, bob] = await Promise.all([dataClient(app), dataClient(app)]);
  const s1 = await player(alice, 's1', {}, { selfExcluded: true, depositLimit: 5000 });
  const s2 = await player(alice, 's2', {}, { coolingOff: true });
  await player(alice, 's3', { status: 'excluded' }, { sessionLimit: 60 });
  await player(alice, 's4', {}, { depositLimit: 0, selfExcluded: false });
  await player(alice, 's5', {});
  await player(alice, 's7', { status: 'excluded' });
  await player(alice, 's6', {}, { selfExcluded: true });
  expect((await alice.call('/entities/s6', { method: 'DELETE' })).status).toBe(200);
  const b1 = await player(bob, 'b1', {}, { coolingOff: true });
  await app.deps
    .db('marketing_evidence')
    .insert([
      ...decisions(alice, 'self_excluded', 2, 1),
      ...decisions(alice, 'no_consent', 1, 2),
      ...decisions(alice, 'allowed', 3, 3),
      ...decisions(alice, 'self_excluded', 5, 40),
      ...decisions(bob, 'cooling_off', 4, 1),
    ]);
  await app.deps
    .db('harm_indicators')
    .insert([
      indicator(alice, s1, 'deposit_velocity', 'evt_1', 1),
      indicator(alice, s1, 'deposit_velocity', 'evt_2', 2),
      indicator(alice, s2, 'deposit_velocity', 'evt_3', 3),
      indicator(alice, s1, 'deposit_after_reversed_withdrawal', 'evt_4', 4),
      indicator(alice, s2, 'deposit_velocity', 'evt_5', 40),
      indicator(bob, b1, 'deposit_velocity', 'evt_6', 1),
    ]);
}, 60_000);
afterAll(() => app.close());

const rules = (counts: Record<string, number>) => ({
  self_excluded: 0,
  cooling_off: 0,
  player_excluded: 0,
  no_consent: 0,
  harm_indicator: 0,
  deposit_limit_reached: 0,
  quiet_hours: 0,
  ...counts,
});

describe('protection and errors', () => {
  it('401 without credentials; a bad range is 400 naming range', async () => {
    expect((await analytics(app, undefined, '/safer-gambling')).status).toBe(401);
    const bad = await analytics(app, alice.key, '/safer-gambling?range=1y');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAM', details: [{ field: 'range', message: 'invalid range' }] });
  });
});

describe('figures computed by hand', () => {
  it('the last 30 days: players protected and limited now, the gate’s decisions by rule, the indicators fired', async () => {
    const response = await analytics(app, alice.key, '/safer-gambling');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        range: { start: day(29), end: day(0) },
        figures: {
          players: {
            total: 6,
            self_excluded: 1,
            cooling_off: 1,
            status_excluded: 2,
            protected: 4,
            with_deposit_limit: 1,
            with_session_limit: 1,
            with_any_limit: 2,
          },
          marketing: { decided: 6, performed: 3, suppressed: 3, suppressed_by_rule: rules({ self_excluded: 2, no_consent: 1 }) },
          harm_indicators: { fired: 4, players: 2, by_indicator: { deposit_velocity: 3, deposit_after_reversed_withdrawal: 1 } },
        },
      },
    });
  });

  it('a range 40 days back holds only that day’s decisions and indicator; the players are as of now', async () => {
    const response = await analytics(app, alice.key, `/safer-gambling?range=${day(40)}:${day(40)}`);
    expect(response.body.data.figures.marketing).toEqual({ decided: 5, performed: 0, suppressed: 5, suppressed_by_rule: rules({ self_excluded: 5 }) });
    expect(response.body.data.figures.harm_indicators).toEqual({
      fired: 1,
      players: 1,
      by_indicator: { deposit_velocity: 1, deposit_after_reversed_withdrawal: 0 },
    });
    expect(response.body.data.figures.players.total).toBe(6);
  });

  it('operator B sees only its own player, decisions and indicator', async () => {
    const response = await analytics(app, bob.key, '/safer-gambling');
    expect(response.body.data.figures).toEqual({
      players: {
        total: 1,
        self_excluded: 0,
        cooling_off: 1,
        status_excluded: 0,
        protected: 1,
        with_deposit_limit: 0,
        with_session_limit: 0,
        with_any_limit: 0,
      },
      marketing: { decided: 4, performed: 0, suppressed: 4, suppressed_by_rule: rules({ cooling_off: 4 }) },
      harm_indicators: { fired: 1, players: 1, by_indicator: { deposit_velocity: 1, deposit_after_reversed_withdrawal: 0 } },
    });
  });
});

describe('cost', () => {
  it('the players now are read from the compliance states and the excluded players through their partial indexes, and the kept count', async () => {
    const plan = await app.deps.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      const result = await trx.raw(`EXPLAIN ${PLAYERS_NOW}`, { operatorId: alice.operator.operatorId });
      return result.rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index (Only )?Scan using entity_states_compliance_idx/);
    expect(plan).toMatch(/Index (Only )?Scan using entities_excluded_players_idx/);
    expect(plan).toContain('analytics_player_counts');
  });
});
