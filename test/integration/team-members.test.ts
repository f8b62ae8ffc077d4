import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { ownerMemberId, teamUrl } from '../helpers/team';

let app: TestApp;
let acme: TestOperator;
let acmeOwnerId: string;

beforeAll(async () => {
  app = await startTestApp();
  acme = await signupOperator(app.url, 'Acme Casino');
  acmeOwnerId = await ownerMemberId(app.deps.db, acme.operatorId);
});
afterAll(() => app.close());

const memberUrl = (id: string) => teamUrl(app, `/operators/me/members/${id}`);
const patch = (token: string, id: string, body: unknown) => http(memberUrl(id), { method: 'PATCH', token, body });
const revoke = (token: string, id: string) => http(memberUrl(id), { method: 'DELETE', token });
const signIn = (email: string, password: string) => http(`${app.url}/auth/v1/token?grant_type=password`, { body: { email, password } });
const failure = (code: string, error: string) => ({ success: false, code, error });
const add = (role: 'admin' | 'member', operatorId = acme.operatorId) => addMemberAndSignIn(app.deps.db, app.url, operatorId, role);

const MANAGEMENT_CALLS: Array<[string, string, unknown?]> = [
  ['GET', '/operators/me/invites'],
  ['POST', '/operators/me/invites', { email: 'x@example.test', role: 'member' }],
  ['POST', `/operators/me/invites/${randomUUID()}/resend`],
  ['DELETE', `/operators/me/invites/${randomUUID()}`],
  ['PATCH', `/operators/me/members/${randomUUID()}`, { role: 'member' }],
  ['DELETE', `/operators/me/members/${randomUUID()}`],
];
const EVERY_SESSION_CALL: Array<[string, string, unknown?]> = [['GET', '/operators/me/members'], ...MANAGEMENT_CALLS];

describe('protection', () => {
  it('401 UNAUTHORIZED without a token, with a forged one, and with an API key (session JWT only)', async () => {
    const { key } = await createApiKey(app.url, acme);
    const [header, payload] = acme.accessToken.split('.');
    for (const [method, path, body] of EVERY_SESSION_CALL) {
      const none = await http(teamUrl(app, path), { method, body });
      expect(none.status).toBe(401);
      expect(none.body).toEqual(failure('UNAUTHORIZED', 'Authorization header is required'));
      const forged = await http(teamUrl(app, path), { method, body, token: `${header}.${payload}.${'x'.repeat(43)}` });
      expect(forged.status).toBe(401);
      expect(forged.body).toEqual(failure('UNAUTHORIZED', 'Invalid or expired session'));
      const apiKey = await http(teamUrl(app, path), { method, body, token: key });
      expect(apiKey.status).toBe(401);
      expect(apiKey.body).toEqual(failure('UNAUTHORIZED', 'Team management requires a session token; API keys are not accepted'));
    }
  });

  it('403 FORBIDDEN for a Member on every management endpoint, before the body is read; listing members is allowed', async () => {
    const member = await add('member');
    for (const [method, path] of MANAGEMENT_CALLS) {
      const response = await http(teamUrl(app, path), { method, token: member.accessToken, body: method === 'GET' ? undefined : { nonsense: true } });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(failure('FORBIDDEN', 'Only the Owner or an Admin can manage the team'));
    }
    expect((await http(teamUrl(app, '/operators/me/members'), { token: member.accessToken })).status).toBe(200);
  });
});

describe('GET /operators/me/members', () => {
  it('lists every member with isSelf for the caller and isOwner for the Owner, also under /functions/v1', async () => {
    const operator = await signupOperator(app.url, 'Listing Ltd');
    const admin = await add('admin', operator.operatorId);
    const member = await add('member', operator.operatorId);
    const response = await http(`${app.url}/functions/v1/platform-api/operators/me/members`, { token: admin.accessToken });
    expect(response.status).toBe(200);
    const { members, count } = response.body.data;
    expect(count).toBe(3);
    const owner = await app.deps.db('members').where({ operator_id: operator.operatorId, role: 'owner' }).first();
    expect(members[0]).toEqual({
      id: owner.id,
      authUserId: operator.userId,
      email: operator.email,
      displayName: owner.display_name,
      role: 'owner',
      status: 'active',
      createdAt: owner.created_at.toISOString(),
      isSelf: false,
      isOwner: true,
    });
    expect(members.map((m: { id: string; isSelf: boolean; isOwner: boolean; role: string }) => [m.id, m.role, m.isSelf, m.isOwner])).toEqual([
      [owner.id, 'owner', false, true],
      [admin.memberId, 'admin', true, false],
      [member.memberId, 'member', false, false],
    ]);
  });
});

describe('PATCH /operators/me/members/:id — error rows', () => {
  it('400 INVALID_INPUT for a bad role, a status other than active, or neither field', async () => {
    const member = await add('member');
    const cases: Array<[unknown, string]> = [
      [{ role: 'owner' }, 'Invalid input: role must be admin or member'],
      [{ role: 'superuser' }, 'Invalid input: role must be admin or member'],
      [{ status: 'suspended' }, 'Invalid input: status can only be active (reinstate); use DELETE to revoke'],
      [{}, 'Invalid input: role or status is required'],
      [[], 'Invalid input: the body must be a JSON object'],
    ];
    for (const [body, error] of cases) {
      const response = await patch(acme.accessToken, member.memberId, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failure('INVALID_INPUT', error));
    }
    expect((await app.deps.db('members').where({ id: member.memberId }).first()).role).toBe('member');
  });

  it('400 INVALID_INPUT for acting on yourself, Owner and Admin alike', async () => {
    const admin = await add('admin');
    const own = await patch(acme.accessToken, acmeOwnerId, { role: 'member' });
    expect(own.status).toBe(400);
    expect(own.body).toEqual(failure('INVALID_INPUT', 'You cannot change your own membership'));
    const adminSelf = await patch(admin.accessToken, admin.memberId, { role: 'member' });
    expect(adminSelf.body).toEqual(failure('INVALID_INPUT', 'You cannot change your own membership'));
    expect((await app.deps.db('members').where({ id: acmeOwnerId }).first()).role).toBe('owner');
  });

  it('403 FORBIDDEN when an Admin acts on the Owner or another Admin, or grants admin', async () => {
    const [admin, otherAdmin, member] = await Promise.all([add('admin'), add('admin'), add('member')]);
    const onOwner = await patch(admin.accessToken, acmeOwnerId, { role: 'member' });
    expect(onOwner.status).toBe(403);
    expect(onOwner.body).toEqual(failure('FORBIDDEN', 'The Owner cannot be changed'));
    const onAdmin = await patch(admin.accessToken, otherAdmin.memberId, { role: 'member' });
    expect(onAdmin.status).toBe(403);
    expect(onAdmin.body).toEqual(failure('FORBIDDEN', 'An Admin can manage Members only'));
    const grant = await patch(admin.accessToken, member.memberId, { role: 'admin' });
    expect(grant.status).toBe(403);
    expect(grant.body).toEqual(failure('FORBIDDEN', 'Only the Owner can grant the admin role'));
    const roles = await app.deps.db('members').whereIn('id', [acmeOwnerId, otherAdmin.memberId, member.memberId]).pluck('role');
    expect(roles.sort()).toEqual(['admin', 'member', 'owner']);
  });

  it("404 NOT_FOUND for an unknown, malformed or another operator's member id", async () => {
    const outsider = await add('member', (await signupOperator(app.url, 'Elsewhere')).operatorId);
    for (const id of [randomUUID(), 'not-a-uuid', outsider.memberId]) {
      const response = await patch(acme.accessToken, id, { role: 'admin' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(failure('NOT_FOUND', 'Member not found'));
    }
    expect((await app.deps.db('members').where({ id: outsider.memberId }).first()).role).toBe('member');
  });
});

describe('PATCH /operators/me/members/:id — allowed side of each rule', () => {
  it('the Owner promotes a Member to Admin and demotes an Admin; the status is unchanged', async () => {
    const member = await add('member');
    const promoted = await patch(acme.accessToken, member.memberId, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({ success: true, data: { id: member.memberId, role: 'admin', status: 'active' } });
    const demoted = await patch(acme.accessToken, member.memberId, { role: 'member' });
    expect(demoted.body.data).toEqual({ id: member.memberId, role: 'member', status: 'active' });
    expect(await app.deps.db('members').where({ id: member.memberId }).first()).toMatchObject({ role: 'member', status: 'active' });
  });

  it('an Admin changes and reinstates a Member', async () => {
    const [admin, member] = await Promise.all([add('admin'), add('member')]);
    expect((await revoke(admin.accessToken, member.memberId)).status).toBe(200);
    const reinstated = await patch(admin.accessToken, member.memberId, { status: 'active', role: 'member' });
    expect(reinstated.status).toBe(200);
    expect(reinstated.body.data).toEqual({ id: member.memberId, role: 'member', status: 'active' });
  });
});

describe('DELETE /operators/me/members/:id — error rows', () => {
  it('400 INVALID_INPUT for revoking your own access', async () => {
    const admin = await add('admin');
    for (const [token, id] of [
      [acme.accessToken, acmeOwnerId],
      [admin.accessToken, admin.memberId],
    ] as const) {
      const response = await revoke(token, id);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failure('INVALID_INPUT', 'You cannot revoke your own access'));
    }
    expect((await app.deps.db('members').where({ id: admin.memberId }).first()).status).toBe('active');
  });

  it('403 OWNER_PROTECTED for revoking the Owner; 403 FORBIDDEN for an Admin revoking an Admin', async () => {
    const [admin, otherAdmin] = await Promise.all([add('admin'), add('admin')]);
    const owner = await revoke(admin.accessToken, acmeOwnerId);
    expect(owner.status).toBe(403);
    expect(owner.body).toEqual(failure('OWNER_PROTECTED', 'The Owner cannot be revoked'));
    const peer = await revoke(admin.accessToken, otherAdmin.memberId);
    expect(peer.status).toBe(403);
    expect(peer.body).toEqual(failure('FORBIDDEN', 'An Admin can manage Members only'));
    const statuses = await app.deps.db('members').whereIn('id', [acmeOwnerId, otherAdmin.memberId]).pluck('status');
    expect(statuses).toEqual(['active', 'active']);
  });

  it("404 NOT_FOUND for an unknown, malformed or another operator's member id", async () => {
    const outsider = await add('member', (await signupOperator(app.url, 'Faraway')).operatorId);
    for (const id of [randomUUID(), 'zzz', outsider.memberId]) {
      const response = await revoke(acme.accessToken, id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(failure('NOT_FOUND', 'Member not found'));
    }
    expect((await app.deps.db('members').where({ id: outsider.memberId }).first()).status).toBe('active');
  });
});

describe('suspension and reinstatement (spec 3.2, rule 8)', () => {
  it('the Owner revokes an Admin: signed out at once, sign-in blocked, their API keys keep working', async () => {
    const admin = await add('admin');
    const key = await http(`${app.url}/api-keys`, { token: admin.accessToken, body: { operatorId: acme.operatorId, label: 'admin key' } });
    expect(key.status).toBe(201);
    const before = await app.deps.db('members').where({ id: admin.memberId }).first();

    const response = await revoke(acme.accessToken, admin.memberId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: admin.memberId, status: 'suspended' } });
    const after = await app.deps.db('members').where({ id: admin.memberId }).first();
    expect(after).toMatchObject({ status: 'suspended', role: 'admin', session_version: before.session_version + 1 });

    const oldToken = await http(teamUrl(app, '/operators/me/members'), { token: admin.accessToken });
    expect(oldToken.status).toBe(401);
    expect(oldToken.body).toEqual(failure('UNAUTHORIZED', 'Session has been revoked'));
    expect((await signIn(admin.email, admin.password)).body).toEqual({ error: 'invalid_grant', error_description: 'This account has been suspended' });
    expect((await http(`${app.url}/api-keys`, { token: key.body.data.key })).status).toBe(200);

    const listed = await http(teamUrl(app, '/operators/me/members'), { token: acme.accessToken });
    expect(listed.body.data.members.find((m: { id: string }) => m.id === admin.memberId).status).toBe('suspended');
    expect((await revoke(acme.accessToken, admin.memberId)).body).toEqual({ success: true, data: { id: admin.memberId, status: 'suspended' } });
  });

  it('an Admin revokes a Member; a role change leaves the suspension; reinstatement restores sign-in but not the old token', async () => {
    const [admin, member] = await Promise.all([add('admin'), add('member')]);
    expect((await revoke(admin.accessToken, member.memberId)).body.data).toEqual({ id: member.memberId, status: 'suspended' });

    const roleOnly = await patch(acme.accessToken, member.memberId, { role: 'admin' });
    expect(roleOnly.body.data).toEqual({ id: member.memberId, role: 'admin', status: 'suspended' });

    const version = (await app.deps.db('members').where({ id: member.memberId }).first()).session_version;
    const reinstated = await patch(acme.accessToken, member.memberId, { status: 'active' });
    expect(reinstated.body.data).toEqual({ id: member.memberId, role: 'admin', status: 'active' });
    expect((await app.deps.db('members').where({ id: member.memberId }).first()).session_version).toBe(version);

    expect((await http(teamUrl(app, '/operators/me/members'), { token: member.accessToken })).status).toBe(401);
    const again = await signIn(member.email, member.password);
    expect(again.status).toBe(200);
    expect((await http(teamUrl(app, '/operators/me/members'), { token: again.body.access_token })).status).toBe(200);
  });
});

describe('tenant isolation', () => {
  it("another operator's Owner neither sees nor changes this operator's members", async () => {
    const rival = await signupOperator(app.url, 'Rival Bets');
    const member = await add('member');
    const listed = await http(teamUrl(app, '/operators/me/members'), { token: rival.accessToken });
    expect(listed.body.data.count).toBe(1);
    expect(listed.body.data.members[0].authUserId).toBe(rival.userId);
    expect((await patch(rival.accessToken, member.memberId, { role: 'admin' })).status).toBe(404);
    expect((await revoke(rival.accessToken, member.memberId)).status).toBe(404);
    expect((await revoke(rival.accessToken, acmeOwnerId)).status).toBe(404);
    expect(await app.deps.db('members').where({ id: member.memberId }).first()).toMatchObject({ role: 'member', status: 'active' });
  });
});
