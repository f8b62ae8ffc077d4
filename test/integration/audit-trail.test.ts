import { auditHash, auditRecordOf } from '../../core/audit';
import { startTestApp, type TestApp } from '../helpers/app';
import { http, type HttpResult } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { KYC_SCHEMA_MAP, kycDocument } from '../helpers/suppliers';
import { acceptInvite, freshEmail, inviteMember, ownerMemberId, teamUrl } from '../helpers/team';

/**
 * The audit trail (docs/compliance.md "Audit trail"): every change to workflows, API keys and their MCP settings,
 * connections, connectors, members, invites and settings is one append-only row, written with the change, naming the
 * member or key that made it, holding hashes and field names but never a value; Owners and Admins read and export it.
 */
let app: TestApp;
let acme: TestOperator;
let rival: TestOperator;
let ownerId: string;
let backendKey: { id: string; key: string };
const SECRETS = {
  webhook: 'whsec-audit-webhook-secret-7f3a9c',
  credential: 'kyc-live-credential-5b8e2d',
  rotated: 'kyc-rotated-credential-9c1f4a',
};
const plaintexts: string[] = [];
/** The changes made, in order: action, target id and actor as the trail must name them. */
const expected: Array<{ action: string; targetId: string; actor: string }> = [];

const audit = (token: string, query = '') => http(teamUrl(app, `/operators/me/audit-events${query}`), { token });
const exportOf = (token: string, query = '') => http(teamUrl(app, `/operators/me/audit-events/export${query}`), { token });
const teamFailure = (code: string, error: string) => ({ success: false, code, error });
const rowsOf = (operatorId: string) =>
  app.deps
    .db('audit_events')
    .where({ operator_id: operatorId })
    .orderBy([{ column: 'occurred_at' }, { column: 'id' }]);

function ok(response: HttpResult, status = 200): any {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text}`);
  return response.body?.data;
}

beforeAll(async () => {
  app = await startTestApp();
  [acme, rival] = await Promise.all([signupOperator(app.url, 'Audit Casino'), signupOperator(app.url, 'Rival Bets')]);
  ownerId = await ownerMemberId(app.deps.db, acme.operatorId);
  backendKey = await createApiKey(app.url, acme, 'backend');
  plaintexts.push(backendKey.key);
  expected.push({ action: 'api_key.created', targetId: backendKey.id, actor: `member:${ownerId}` });
  await createApiKey(app.url, rival, 'rival backend');
});
afterAll(() => app.close());

describe('protection', () => {
  it('401 without a session or with an API key, 403 for a Member, on the listing and the export', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operatorId, 'member');
    for (const path of ['/operators/me/audit-events', '/operators/me/audit-events/export']) {
      expect(await http(teamUrl(app, path))).toMatchObject({ status: 401, body: teamFailure('UNAUTHORIZED', 'Authorization header is required') });
      expect(await http(teamUrl(app, path), { token: backendKey.key })).toMatchObject({
        status: 401,
        body: teamFailure('UNAUTHORIZED', 'Team management requires a session token; API keys are not accepted'),
      });
      expect(await http(teamUrl(app, path), { token: member.accessToken })).toMatchObject({
        status: 403,
        body: teamFailure('FORBIDDEN', 'Only the Owner or an Admin can manage the team'),
      });
    }
  });
});

describe('filters', () => {
  it('400 INVALID_INPUT naming the bad filter, with the exact body', async () => {
    const cases: Array<[string, string]> = [
      ['?action=automation.renamed', `Invalid input: action must be one of ${'automation.created'}`],
      ['?actor=bob', 'Invalid input: actor must be member:<member id> or key:<API key id>'],
      [
        '?targetType=planet',
        'Invalid input: targetType must be one of automation, api_key, connection, connector, member, invite, settings, mcp_grant, player, run, evidence',
      ],
      ['?from=yesterday', 'Invalid input: from must be an ISO 8601 date-time with a zone (2026-11-30T00:00:00Z)'],
      ['?from=2026-11-30T00:00:00Z&to=2026-11-29T00:00:00Z', 'Invalid input: to must not be before from'],
      ['?limit=0', 'Invalid input: limit must be a whole number from 1 to 200'],
      ['?limit=201', 'Invalid input: limit must be a whole number from 1 to 200'],
      ['?cursor=bm90LWEtY3Vyc29y', 'Invalid input: cursor is not a cursor this API gave (nextCursor of a previous page)'],
    ];
    for (const [query, error] of cases) {
      const response = await audit(acme.accessToken, query);
      expect([query, response.status, response.body.code]).toEqual([query, 400, 'INVALID_INPUT']);
      if (query.startsWith('?action=')) expect(response.body.error).toMatch(/^Invalid input: action must be one of automation\.created, automation\.updated, /);
      else expect(response.body).toEqual(teamFailure('INVALID_INPUT', error));
    }
    const cursor = Buffer.from(`2026-11-30T00:00:00.000000Z|aud_${'0'.repeat(32)}`).toString('base64url');
    expect(await audit(acme.accessToken, `?cursor=${cursor}&offset=1`)).toMatchObject({
      status: 400,
      body: teamFailure('INVALID_INPUT', 'Invalid input: offset cannot be combined with cursor'),
    });
    expect(await exportOf(acme.accessToken, '?format=xml')).toMatchObject({
      status: 400,
      body: teamFailure('INVALID_INPUT', 'Invalid input: format must be csv or json'),
    });
    expect(await audit(acme.accessToken, '?colour=red&limit=5')).toMatchObject({
      status: 400,
      body: teamFailure('INVALID_INPUT', 'Invalid input: query has unknown parameters: colour'),
    });
    expect(await exportOf(acme.accessToken, '?actorId=x')).toMatchObject({
      status: 400,
      body: teamFailure('INVALID_INPUT', 'Invalid input: query has unknown parameters: actorId'),
    });
  });
});

describe('every change, once, with its actor', () => {
  const owner = () => acme.accessToken;
  const wf = (path: string, token: string, init: { method?: string; body?: unknown } = {}) => http(`${app.url}/workflows-api${path}`, { ...init, token });
  const keys = (token: string, init: { method?: string; body?: unknown; path?: string } = {}) =>
    http(`${app.url}/api-keys${init.path ?? ''}`, { method: init.method, body: init.body, token });
  const conn = (path: string, token: string, init: { method?: string; body?: unknown } = {}) => http(`${app.url}/connections-api${path}`, { ...init, token });
  const byKey = () => `key:${backendKey.id}`;
  const byOwner = () => `member:${ownerId}`;
  let workflowId: string;
  let secondKey: { id: string; key: string };
  let connectionId: string;
  let inviteToken: string;
  let invitedMemberId: string;

  it('records workflows: create (key), update (member), rollback (key), delete later', async () => {
    const body = {
      name: 'Audited',
      nodes: [
        { id: 'hook', type: 'trigger.webhook', params: { secret: SECRETS.webhook } },
        { id: 'wait', type: 'action.delay', params: { seconds: 1 } },
      ],
      edges: [{ from: 'hook', to: 'wait' }],
    };
    workflowId = ok(await wf('/workflows', backendKey.key, { method: 'POST', body }), 201).id;
    expected.push({ action: 'automation.created', targetId: workflowId, actor: byKey() });
    // As the editor saves: the webhook step without its secret, which keeps the stored one.
    const changed = {
      ...body,
      nodes: [
        { id: 'hook', type: 'trigger.webhook', params: {} },
        { id: 'wait', type: 'action.delay', params: { seconds: 5 } },
      ],
    };
    ok(await wf(`/workflows/${workflowId}`, owner(), { method: 'PUT', body: changed }));
    expected.push({ action: 'automation.updated', targetId: workflowId, actor: byOwner() });
    ok(await wf(`/workflows/${workflowId}`, owner(), { method: 'PUT', body: changed }));
    const invalid = await wf(`/workflows/${workflowId}`, owner(), { method: 'PUT', body: { ...changed, nodes: [] } });
    expect(invalid.status).toBe(400);
    ok(await wf(`/workflows/${workflowId}/versions/1/rollback`, backendKey.key, { method: 'POST' }));
    expected.push({ action: 'automation.rolled_back', targetId: workflowId, actor: byKey() });
  });

  it('records API keys and their MCP settings; a refused revoke records nothing', async () => {
    secondKey = (await keys(owner(), { body: { operatorId: acme.operatorId, label: 'second' } })).body.data;
    plaintexts.push(secondKey.key);
    expected.push({ action: 'api_key.created', targetId: secondKey.id, actor: byOwner() });
    expect((await keys(backendKey.key, { method: 'PATCH', body: { id: secondKey.id, label: 'renamed' } })).status).toBe(200);
    expected.push({ action: 'api_key.renamed', targetId: secondKey.id, actor: byKey() });
    const mcp = await keys(owner(), { method: 'PATCH', path: `/${secondKey.id}/mcp`, body: { mcp_enabled: true, mcp_workflow_allowlist: [workflowId] } });
    expect(mcp.status).toBe(200);
    expected.push({ action: 'api_key.mcp_updated', targetId: secondKey.id, actor: byOwner() });
    expect((await keys(owner(), { method: 'DELETE', path: `?id=${secondKey.id}` })).status).toBe(200);
    expected.push({ action: 'api_key.revoked', targetId: secondKey.id, actor: byOwner() });
    expect((await keys(owner(), { method: 'DELETE', path: `?id=${secondKey.id}` })).status).toBe(200);
    expect((await keys(owner(), { method: 'DELETE', path: `?id=${secondKey.id}&hard=true` })).status).toBe(200);
    expected.push({ action: 'api_key.deleted', targetId: secondKey.id, actor: byOwner() });
    const [rivalKey] = await app.deps.db('api_keys').where({ operator_id: rival.operatorId, revoked: false }).pluck('id');
    const before = (await rowsOf(rival.operatorId)).length;
    const last = await http(`${app.url}/api-keys?id=${rivalKey}`, { method: 'DELETE', token: rival.accessToken });
    expect(last.status).toBe(400);
    expect((await rowsOf(rival.operatorId)).length).toBe(before);
  });

  it('records connectors and connections, credentials only as the hash of their ciphertext', async () => {
    const document = kycDocument('https://kyc.example', { kind: 'apiKeyHeader', name: 'X-Api-Key', value: 'k' });
    const connector = ok(
      await conn('/connectors', backendKey.key, { body: { name: 'VeriKYC', provider: 'verikyc', openapi: document, schemaMap: KYC_SCHEMA_MAP } }),
      201,
    );
    expected.push({ action: 'connector.created', targetId: connector.id, actor: byKey() });
    const credentials = { apiKey: SECRETS.credential };
    connectionId = ok(await conn('/connections', backendKey.key, { body: { connectorId: connector.id, name: 'KYC live', credentials } }), 201).id;
    expected.push({ action: 'connection.created', targetId: connectionId, actor: byKey() });
    ok(await conn(`/connections/${connectionId}`, owner(), { method: 'PATCH', body: { credentials: { apiKey: SECRETS.rotated } } }));
    expected.push({ action: 'connection.updated', targetId: connectionId, actor: byOwner() });
    const spare = ok(await conn('/connectors', owner(), { body: { name: 'Spare', provider: 'spare' } }), 201);
    expected.push({ action: 'connector.created', targetId: spare.id, actor: byOwner() });
    ok(await conn(`/connectors/${spare.id}`, backendKey.key, { method: 'DELETE' }));
    expected.push({ action: 'connector.deleted', targetId: spare.id, actor: byKey() });
  });

  it('records settings, the dashboard credential named as its member', async () => {
    const issued = await http(`${app.url}/auth/v1/dashboard-credential`, { method: 'POST', token: owner() });
    const credential = issued.body.credential as string;
    plaintexts.push(credential);
    const put = await http(`${app.url}/operator-data-api/settings`, { method: 'PUT', token: credential, body: { dataRetentionDays: 400 } });
    expect(put.status).toBe(200);
    expected.push({ action: 'settings.updated', targetId: acme.operatorId, actor: byOwner() });
    const key = await http(`${app.url}/operator-data-api/settings`, { method: 'PUT', token: backendKey.key, body: { templateId: 'tpl_igaming' } });
    expect(key.status).toBe(200);
    expected.push({ action: 'settings.updated', targetId: acme.operatorId, actor: byKey() });
  });

  it('records invites (create, resend, revoke, accept by the new member) and members (role change, suspension)', async () => {
    const invite = await inviteMember(app, owner(), 'member', freshEmail('audited'));
    expected.push({ action: 'invite.created', targetId: invite.id, actor: byOwner() });
    const resent = ok(await http(teamUrl(app, `/operators/me/invites/${invite.id}/resend`), { method: 'POST', token: owner() }));
    expected.push({ action: 'invite.resent', targetId: invite.id, actor: byOwner() });
    inviteToken = resent.token;
    plaintexts.push(invite.token, inviteToken);
    const other = await inviteMember(app, owner(), 'admin', freshEmail('revoked'));
    plaintexts.push(other.token);
    expected.push({ action: 'invite.created', targetId: other.id, actor: byOwner() });
    ok(await http(teamUrl(app, `/operators/me/invites/${other.id}`), { method: 'DELETE', token: owner() }));
    expected.push({ action: 'invite.revoked', targetId: other.id, actor: byOwner() });
    const accepted = await acceptInvite(app, inviteToken, { password: 'invitee-password-secret-1' });
    expect(accepted.status).toBe(200);
    const joined = await app.deps.db('invites').where({ id: invite.id }).first();
    expect(joined.status).toBe('accepted');
    invitedMemberId = (await app.deps.db('members as m').join('users as u', 'u.id', 'm.user_id').where('u.email', invite.email).first('m.id')).id;
    expected.push({ action: 'invite.accepted', targetId: invite.id, actor: `member:${invitedMemberId}` });
    ok(await http(teamUrl(app, `/operators/me/members/${invitedMemberId}`), { method: 'PATCH', token: owner(), body: { role: 'admin' } }));
    expected.push({ action: 'member.updated', targetId: invitedMemberId, actor: byOwner() });
    ok(await http(teamUrl(app, `/operators/me/members/${invitedMemberId}`), { method: 'DELETE', token: owner() }));
    expected.push({ action: 'member.suspended', targetId: invitedMemberId, actor: byOwner() });
    ok(await wf(`/workflows/${workflowId}`, backendKey.key, { method: 'DELETE' }));
    expected.push({ action: 'automation.deleted', targetId: workflowId, actor: byKey() });
  });

  it('has exactly these events, in order, each naming its actor, also through the API', async () => {
    const rows = await rowsOf(acme.operatorId);
    const actorOf = (row: any) => `${row.actor_kind === 'member' ? 'member' : 'key'}:${row.actor_id}`;
    expect(rows.map((row: any) => ({ action: row.action, targetId: row.target_id, actor: actorOf(row) }))).toEqual(expected);
    const listed = ok(await audit(acme.accessToken, '?limit=200'));
    expect(listed.count).toBe(expected.length);
    expect(listed.events.map((event: any) => event.id)).toEqual(rows.map((row: any) => row.id).reverse());
    const update = listed.events.find((event: any) => event.action === 'automation.updated');
    expect(update).toMatchObject({ actor: { kind: 'member', id: ownerId }, targetType: 'automation', changedFields: ['nodes', 'version'] });
    expect(update.summary).toBe('Changed nodes, version; version 2');
    const rollback = listed.events.find((event: any) => event.action === 'automation.rolled_back');
    expect(rollback.summary).toBe('Changed nodes, version; version 1 restored as version 3');
    const role = listed.events.find((event: any) => event.action === 'member.updated');
    expect(role.changedFields).toEqual(['role']);
    const suspended = listed.events.find((event: any) => event.action === 'member.suspended');
    expect(suspended.changedFields).toEqual(['session_version', 'status']);
    const rotated = listed.events.find((event: any) => event.action === 'connection.updated');
    expect(rotated.changedFields).toEqual(['credentials_ciphertext']);
  });

  it('keeps hashes, never values: no key, token, secret or credential anywhere in the rows', async () => {
    const rows = await rowsOf(acme.operatorId);
    for (const row of rows) {
      for (const hash of [row.before_hash, row.after_hash]) if (hash !== null) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const text = JSON.stringify(rows);
    const stored = await app.deps.db('api_keys').where({ operator_id: acme.operatorId }).pluck('key_hash');
    const ciphertexts = await app.deps.db('connections').where({ operator_id: acme.operatorId }).pluck('credentials_ciphertext');
    const sealedHooks = await app.deps.db('automation_webhooks').where({ operator_id: acme.operatorId }).pluck('secret_ciphertext');
    const forbidden = [...plaintexts, ...Object.values(SECRETS), 'invitee-password-secret-1', ...stored, ...ciphertexts, ...sealedHooks.filter(Boolean)];
    for (const secret of forbidden) expect([secret, text.includes(secret)]).toEqual([secret, false]);
    const connection = await app.deps.db('connections').where({ id: connectionId }).first();
    const updated = rows.find((row: any) => row.action === 'connection.updated');
    expect(updated.after_hash).toBe(auditHash(auditRecordOf(connection, ['last_used_at'])));
    expect(updated.before_hash).not.toBe(updated.after_hash);
  });

  it('refuses UPDATE, DELETE and TRUNCATE on the table, whoever asks', async () => {
    const [row] = await rowsOf(acme.operatorId);
    await expect(app.deps.db('audit_events').where({ id: row.id }).update({ summary: 'nothing happened' })).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(app.deps.db('audit_events').where({ id: row.id }).delete()).rejects.toThrow(/append-only: DELETE refused/);
    await expect(app.deps.db.raw('TRUNCATE audit_events')).rejects.toThrow(/append-only: TRUNCATE refused/);
    expect((await app.deps.db('audit_events').where({ id: row.id }).first()).summary).toBe(row.summary);
  });

  it("shows another operator none of it: its own events only, and no filter reaches this operator's", async () => {
    const own = ok(await audit(rival.accessToken, '?limit=200'));
    const ids = new Set((await rowsOf(acme.operatorId)).map((row: any) => row.id));
    expect(own.events.length).toBeGreaterThan(0);
    expect(own.events.filter((event: any) => ids.has(event.id))).toEqual([]);
    expect(ok(await audit(rival.accessToken, `?targetId=${workflowId}`)).count).toBe(0);
    expect(ok(await audit(rival.accessToken, `?actor=key:${backendKey.id}`)).count).toBe(0);
    const exported = await exportOf(rival.accessToken, '?format=json');
    expect(exported.text).not.toContain(workflowId);
  });

  it('filters by action, actor, target and period, and pages by offset and by cursor', async () => {
    const byAction = ok(await audit(acme.accessToken, '?action=api_key.created'));
    expect(byAction.events.map((event: any) => event.targetId)).toEqual([secondKey.id, backendKey.id]);
    const keyEvents = ok(await audit(acme.accessToken, `?actor=key:${backendKey.id}&limit=200`));
    expect(keyEvents.count).toBe(expected.filter((event) => event.actor === byKey()).length);
    const target = ok(await audit(acme.accessToken, `?targetType=automation&targetId=${workflowId}`));
    expect(target.events.map((event: any) => event.action)).toEqual([
      'automation.deleted',
      'automation.rolled_back',
      'automation.updated',
      'automation.created',
    ]);
    const future = ok(await audit(acme.accessToken, '?from=2999-01-01T00:00:00Z'));
    expect(future).toEqual({ events: [], count: 0 });
    const all = ok(await audit(acme.accessToken, '?limit=200')).events.map((event: any) => event.id);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = ok(await audit(acme.accessToken, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`));
      paged.push(...page.events.map((event: any) => event.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
    const second = ok(await audit(acme.accessToken, '?limit=4&offset=4'));
    expect(second.events.map((event: any) => event.id)).toEqual(all.slice(4, 8));
  });

  it('exports CSV and JSON with the same filters', async () => {
    const csv = await exportOf(acme.accessToken, `?actor=member:${ownerId}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-events-.*\.csv"$/);
    const lines = csv.text.trimEnd().split('\n');
    expect(lines[0]).toBe('id,occurredAt,actorKind,actorId,action,targetType,targetId,beforeHash,afterHash,changedFields,summary');
    const ownerEvents = expected.filter((event) => event.actor === byOwner());
    expect(lines.length - 1).toBe(ownerEvents.length);
    expect(csv.headers.get('x-event-count')).toBe(String(ownerEvents.length));
    expect(lines.slice(1).every((line) => line.includes(`,member,${ownerId},`))).toBe(true);
    expect(lines.some((line) => line.includes(`,api_key.created,api_key,${secondKey.id},,`))).toBe(true);
    const json = await exportOf(acme.accessToken, '?format=json&targetType=api_key');
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.body.success).toBe(true);
    expect(json.body.data.events.map((event: any) => event.action)).toEqual([
      'api_key.deleted',
      'api_key.revoked',
      'api_key.mcp_updated',
      'api_key.renamed',
      'api_key.created',
      'api_key.created',
    ]);
  });
});
