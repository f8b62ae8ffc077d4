import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';

/**
 * What the dashboard's responsible-gambling screens stand on (docs/compliance.md): a player's `compliance` and
 * `consent` changes on the audit trail, the evidence viewer's page with its filters, and a player's harm indicators —
 * each scoped to the caller's organisation.
 */
interface Org {
  operator: TestOperator;
  key: string;
  keyId: string;
  credential: string;
  ownerMemberId: string;
}

let app: TestApp;
let acme: Org;
let globex: Org;
let member: { accessToken: string; credential: string };
const excluded = { selfExcluded: true, coolingOff: false, exclusionSources: ['dashboard'], depositLimit: 0 };
const notExcluded = { ...excluded, selfExcluded: false };

async function credentialOf(accessToken: string): Promise<string> {
  const issued = await http(`${app.url}/auth/v1/dashboard-credential`, { method: 'POST', token: accessToken });
  expect(issued.status).toBe(200);
  return issued.body.credential;
}

async function org(name: string): Promise<Org> {
  const operator = await signupOperator(app.url, name);
  const { id: keyId, key } = await createApiKey(app.url, operator, 'backend');
  expect((await http(`${app.url}/operator-data-api/settings`, { method: 'PUT', token: key, body: { templateId: 'tpl_igaming' } })).status).toBe(200);
  for (const externalId of ['p-1', 'p-2']) {
    const created = await http(`${app.url}/operator-data-api/entities`, { token: key, body: { entityType: 'player', externalId, data: { country: 'MT' } } });
    expect(created.status).toBe(201);
  }
  const owner = await app.deps.db('members').where({ operator_id: operator.operatorId, user_id: operator.userId }).first('id');
  return { operator, key, keyId, credential: await credentialOf(operator.accessToken), ownerMemberId: owner.id };
}

const putState = (token: string, externalId: string, key: string, value: unknown) =>
  http(`${app.url}/operator-data-api/entities/${externalId}/state/${key}`, { method: 'PUT', token, body: { value } });
const audited = (operatorId: string) =>
  app.deps.db('audit_events').where({ operator_id: operatorId, target_type: 'player' }).orderBy('occurred_at').orderBy('id');

beforeAll(async () => {
  app = await startTestApp();
  [acme, globex] = await Promise.all([org('Acme Casino'), org('Globex Casino')]);
  const signedIn = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
  member = { accessToken: signedIn.accessToken, credential: await credentialOf(signedIn.accessToken) };
});
afterAll(async () => {
  await app?.close();
});

describe("a player's compliance and consent on the audit trail", () => {
  it('records self-exclusion set from the dashboard and lifted by a key: the flag named, hashes only, the same value again nothing', async () => {
    expect((await putState(acme.credential, 'p-1', 'compliance', excluded)).status).toBe(200);
    expect((await putState(acme.credential, 'p-1', 'compliance', excluded)).status).toBe(200);
    expect((await putState(acme.key, 'p-1', 'compliance', notExcluded)).status).toBe(200);
    expect((await putState(acme.key, 'p-1', 'consent', { email: false, sms: true })).status).toBe(200);
    expect((await putState(acme.key, 'p-1', 'loyalty_tier', 'gold')).status).toBe(200);

    const rows = await audited(acme.operator.operatorId);
    expect(rows.map((row) => [row.action, row.actor_kind, row.actor_id, row.target_id, row.changed_fields, row.summary])).toEqual([
      ['player.compliance_updated', 'member', acme.ownerMemberId, 'p-1', [], 'Created; state compliance'],
      ['player.compliance_updated', 'api_key', acme.keyId, 'p-1', ['selfExcluded'], 'Changed selfExcluded; state compliance'],
      ['player.consent_updated', 'api_key', acme.keyId, 'p-1', [], 'Created; state consent'],
    ]);
    expect(rows[0].before_hash).toBeNull();
    expect(rows[1].before_hash).toBe(rows[0].after_hash);
    expect(rows[1].after_hash).not.toBe(rows[1].before_hash);
    expect(JSON.stringify(rows)).not.toContain('dashboard');
  });

  it("is listed by the audit log's action filter, and a Member's refused write leaves no event", async () => {
    const listed = await http(`${app.url}/platform-api/operators/me/audit-events?action=player.compliance_updated`, { token: acme.operator.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data.events.map((event: { targetType: string; targetId: string }) => [event.targetType, event.targetId])).toEqual([
      ['player', 'p-1'],
      ['player', 'p-1'],
    ]);
    const refused = await putState(member.credential, 'p-2', 'compliance', excluded);
    expect(refused.status).toBe(403);
    expect(await app.deps.db('audit_events').where({ operator_id: acme.operator.operatorId, target_id: 'p-2' })).toEqual([]);
    expect(await app.deps.db('entity_states').where({ operator_id: acme.operator.operatorId, state_key: 'compliance' }).count()).toEqual([{ count: '1' }]);
  });

  it("writes another organisation's player of the same id in its own trail only", async () => {
    expect((await putState(globex.key, 'p-1', 'compliance', excluded)).status).toBe(200);
    expect((await audited(globex.operator.operatorId)).map((row) => [row.action, row.target_id])).toEqual([['player.compliance_updated', 'p-1']]);
    expect(await audited(acme.operator.operatorId)).toHaveLength(3);
    const acmeState = await http(`${app.url}/operator-data-api/entities/p-1/state/compliance`, { token: acme.key });
    expect(acmeState.body.data.value).toEqual(notExcluded);
  });
});

const HOUR = 3_600_000;
const base = Date.now() - 48 * HOUR;
const evidence = (operatorId: string, index: number, rule: string, playerId: string | null, workflowId = 'wf_a') => ({
  operator_id: operatorId,
  recorded_at: new Date(base + index * HOUR),
  automation_id: workflowId,
  automation_version: 1,
  run_id: `run_${operatorId.slice(0, 4)}_${index}`,
  node_id: 'email',
  action_type: 'action.send_email',
  purpose: 'marketing',
  rule,
  player_id: playerId,
  state_hash: 'c'.repeat(64),
});

describe('the evidence viewer (GET /workflows-api/compliance/evidence/records)', () => {
  const page = (token: string | undefined, query = '') => http(`${app.url}/workflows-api/compliance/evidence/records${query}`, { token });

  beforeAll(async () => {
    const a = acme.operator.operatorId;
    await app.deps
      .db('marketing_evidence')
      .insert([
        evidence(a, 0, 'allowed', 'p-1'),
        evidence(a, 1, 'self_excluded', 'p-1'),
        evidence(a, 2, 'no_consent', 'p-2', 'wf_b'),
        evidence(a, 3, 'self_excluded', 'p-2'),
        evidence(a, 4, 'allowed', null),
        evidence(globex.operator.operatorId, 2, 'self_excluded', 'p-1'),
      ]);
  });

  it('pages newest first with a cursor and combines the filters', async () => {
    const first = await page(acme.key, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.records.map((row: { run_id: string }) => row.run_id)).toEqual([
      `run_${acme.operator.operatorId.slice(0, 4)}_4`,
      `run_${acme.operator.operatorId.slice(0, 4)}_3`,
    ]);
    expect(first.body.data.records[0]).toEqual({
      recorded_at: new Date(base + 4 * HOUR).toISOString(),
      workflow_id: 'wf_a',
      workflow_version: 1,
      run_id: `run_${acme.operator.operatorId.slice(0, 4)}_4`,
      node_id: 'email',
      action_type: 'action.send_email',
      purpose: 'marketing',
      rule: 'allowed',
      player_id: null,
      state_hash: 'c'.repeat(64),
    });
    const runs: string[] = [];
    let cursor: string | null = first.body.data.nextCursor;
    while (cursor) {
      const next = await page(acme.operator.accessToken, `?limit=2&cursor=${cursor}`);
      expect(next.status).toBe(200);
      runs.push(...next.body.data.records.map((row: { run_id: string }) => row.run_id.slice(-1)));
      cursor = next.body.data.nextCursor;
    }
    expect(runs).toEqual(['2', '1', '0']);

    const pick = async (query: string) => (await page(acme.key, query)).body.data.records.map((row: { run_id: string }) => row.run_id.slice(-1));
    expect(await pick('?playerId=p-1')).toEqual(['1', '0']);
    expect(await pick('?rule=self_excluded')).toEqual(['3', '1']);
    expect(await pick('?playerId=p-2&rule=self_excluded')).toEqual(['3']);
    expect(await pick('?workflowId=wf_b')).toEqual(['2']);
    const from = encodeURIComponent(new Date(base + HOUR).toISOString());
    const to = encodeURIComponent(new Date(base + 3 * HOUR).toISOString());
    expect(await pick(`?from=${from}&to=${to}`)).toEqual(['2', '1']);
  });

  it("never shows another organisation's evidence", async () => {
    const theirs = await page(globex.key, '?playerId=p-1');
    expect(theirs.body.data).toEqual({
      records: [expect.objectContaining({ rule: 'self_excluded', run_id: `run_${globex.operator.operatorId.slice(0, 4)}_2` })],
      nextCursor: null,
    });
    expect((await page(globex.key, '?rule=no_consent')).body.data).toEqual({ records: [], nextCursor: null });
  });

  it('is refused without credentials (401) and to a Member (403)', async () => {
    expect(await page(undefined)).toMatchObject({
      status: 401,
      body: { success: false, error: { code: 'UNAUTHORIZED' } },
    });
    expect(await page(member.accessToken)).toMatchObject({
      status: 403,
      body: { success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage workflows' } },
    });
  });

  it('names the filter at fault (400, exact bodies)', async () => {
    const bad = async (query: string) => {
      const response = await page(acme.key, query);
      expect(response.status).toBe(400);
      return response.body;
    };
    expect(await bad('?rule=maybe')).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message:
          'Invalid input: rule: must be one of allowed, self_excluded, cooling_off, player_excluded, no_consent, harm_indicator, deposit_limit_reached, quiet_hours',
        details: [
          {
            field: 'rule',
            message: 'must be one of allowed, self_excluded, cooling_off, player_excluded, no_consent, harm_indicator, deposit_limit_reached, quiet_hours',
          },
        ],
      },
    });
    expect(await bad('?limit=101')).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid input: limit: must be a whole number from 1 to 100',
        details: [{ field: 'limit', message: 'must be a whole number from 1 to 100' }],
      },
    });
    expect(await bad('?cursor=bm90LWEtY3Vyc29y')).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid input: cursor: is not a cursor this API gave (nextCursor of a previous page)',
        details: [{ field: 'cursor', message: 'is not a cursor this API gave (nextCursor of a previous page)' }],
      },
    });
    const at = encodeURIComponent(new Date(base).toISOString());
    expect((await bad(`?from=${at}&to=${at}`)).error.details).toEqual([{ field: 'to', message: 'must be after from' }]);
    expect((await bad('?from=yesterday')).error.details).toEqual([
      { field: 'from', message: 'must be an ISO 8601 date-time with a zone (2026-11-30T00:00:00Z)' },
    ]);
    expect((await bad('?player=p-1')).error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Invalid input: query: has unknown parameters: player' });
  });
});

describe("a player's harm indicators (GET /workflows-api/compliance/players/:externalId/harm)", () => {
  it('lists them newest first with until when the player is at risk; another organisation sees none of them', async () => {
    const entity = await app.deps.db('entities').where({ operator_id: acme.operator.operatorId, external_id: 'p-2' }).first('id');
    const firedAt = new Date(Date.now() - 2 * 86_400_000);
    await app.deps.db('harm_indicators').insert([
      {
        operator_id: acme.operator.operatorId,
        entity_id: entity.id,
        indicator: 'deposit_velocity',
        source_event_id: 'evt_1',
        details: { deposits: 5 },
        fired_at: new Date(firedAt.getTime() - HOUR),
      },
      {
        operator_id: acme.operator.operatorId,
        entity_id: entity.id,
        indicator: 'deposit_after_reversed_withdrawal',
        source_event_id: 'evt_2',
        details: {},
        fired_at: firedAt,
      },
    ]);
    const harm = await http(`${app.url}/workflows-api/compliance/players/p-2/harm`, { token: member.accessToken });
    expect(harm.status).toBe(200);
    expect(harm.body).toEqual({
      success: true,
      data: {
        playerId: 'p-2',
        atRiskUntil: new Date(firedAt.getTime() + 30 * 86_400_000).toISOString(),
        indicators: [
          { indicator: 'deposit_after_reversed_withdrawal', firedAt: firedAt.toISOString(), details: {} },
          { indicator: 'deposit_velocity', firedAt: new Date(firedAt.getTime() - HOUR).toISOString(), details: { deposits: 5 } },
        ],
      },
    });
    expect((await http(`${app.url}/workflows-api/compliance/players/p-2/harm`, { token: globex.key })).body).toEqual({
      success: true,
      data: { playerId: 'p-2', atRiskUntil: null, indicators: [] },
    });
    expect((await http(`${app.url}/workflows-api/compliance/players/p-2/harm`)).status).toBe(401);
  });
});
