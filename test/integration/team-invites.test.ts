import { createHash, randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { acceptInvite, expireInvite, freshEmail, inviteMember, ownerMemberId, teamUrl } from '../helpers/team';

const APP_URL = 'https://app.example.test';
const DAY_MS = 86_400_000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

let app: TestApp;
let acme: TestOperator;

beforeAll(async () => {
  app = await startTestApp({ APP_URL });
  acme = await signupOperator(app.url, 'Acme Casino');
});
afterAll(() => app.close());

const url = (path = '') => teamUrl(app, `/operators/me/invites${path}`);
const create = (token: string, body: unknown) => http(url(), { token, body });
const resend = (token: string, id: string) => http(url(`/${id}/resend`), { method: 'POST', token });
const revoke = (token: string, id: string) => http(url(`/${id}`), { method: 'DELETE', token });
const lookup = (token: string) => http(teamUrl(app, `/invites/lookup?token=${encodeURIComponent(token)}`));
const failure = (code: string, error: string) => ({ success: false, code, error });
const admin = () => addMemberAndSignIn(app.deps.db, app.url, acme.operatorId, 'admin');

describe('POST /operators/me/invites — error rows', () => {
  it('400 INVALID_INPUT for a missing or invalid email and a role other than admin or member', async () => {
    const cases: Array<[unknown, string]> = [
      [{ role: 'member' }, 'Invalid input: email is required'],
      [{ email: 'not-an-email', role: 'member' }, 'Invalid input: email must be a valid email address'],
      [{ email: freshEmail() }, 'Invalid input: role is required'],
      [{ email: freshEmail(), role: 'owner' }, 'Invalid input: role must be admin or member'],
      [{}, 'Invalid input: email is required; role is required'],
    ];
    for (const [body, error] of cases) {
      const response = await create(acme.accessToken, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(failure('INVALID_INPUT', error));
    }
    expect(await app.deps.db('invites').where({ operator_id: acme.operatorId, email: 'not-an-email' }).first()).toBeUndefined();
  });

  it('403 FORBIDDEN when an Admin invites an admin; the Admin may invite a member', async () => {
    const { accessToken } = await admin();
    const email = freshEmail();
    const refused = await create(accessToken, { email, role: 'admin' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(failure('FORBIDDEN', 'An Admin can invite Members only'));
    expect(await app.deps.db('invites').where({ email }).first()).toBeUndefined();
    expect((await create(accessToken, { email, role: 'member' })).status).toBe(201);
  });

  it("403 FORBIDDEN when an Admin's invite would replace a pending admin invite; the Owner may replace it", async () => {
    const { accessToken } = await admin();
    const owners = await inviteMember(app, acme.accessToken, 'admin');
    const response = await create(accessToken, { email: owners.email, role: 'member' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(failure('FORBIDDEN', 'Only the Owner can replace a pending admin invite'));
    expect((await lookup(owners.token)).body.data.valid).toBe(true);
    expect((await create(acme.accessToken, { email: owners.email, role: 'member' })).status).toBe(201);
    expect((await lookup(owners.token)).body.data).toEqual({ valid: false, reason: 'revoked' });
  });

  it('409 ALREADY_MEMBER for an email of a member of this organisation, whatever its case', async () => {
    const colleague = await admin();
    for (const email of [colleague.email.toUpperCase(), acme.email]) {
      const response = await create(acme.accessToken, { email, role: 'member' });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(failure('ALREADY_MEMBER', 'This email already has an account in this organisation'));
    }
    expect(await app.deps.db('invites').whereRaw('lower(email) = lower(?)', [colleague.email]).first()).toBeUndefined();
  });

  it('no oracle: an email with an account in another organisation is invited like any other; its holder learns at accept', async () => {
    const elsewhere = await signupOperator(app.url, 'Elsewhere');
    const stranger = freshEmail();
    const known = await create(acme.accessToken, { email: elsewhere.email.toUpperCase(), role: 'member' });
    const unknown = await create(acme.accessToken, { email: stranger, role: 'member' });
    expect([known.status, unknown.status]).toEqual([201, 201]);
    expect(Object.keys(known.body.data).sort()).toEqual(Object.keys(unknown.body.data).sort());
    expect((await lookup(known.body.data.token)).body.data).toEqual({
      valid: true,
      email: elsewhere.email.toLowerCase(),
      role: 'member',
      orgName: 'Acme Casino',
    });
    const accepted = await acceptInvite(app, known.body.data.token);
    expect(accepted.status).toBe(409);
    expect(accepted.body).toEqual(failure('ALREADY_MEMBER', 'This email already has an account'));
  });
});

describe('POST /operators/me/invites — success', () => {
  it('201 with the raw token and accept link once; only the token hash is stored; expiry in 7 days', async () => {
    const email = freshEmail('New.Person');
    const before = Date.now();
    const response = await create(acme.accessToken, { email: email.toUpperCase(), role: 'admin' });
    expect(response.status).toBe(201);
    const data = response.body.data;
    expect(data).toEqual({
      id: expect.any(String),
      email: email.toLowerCase(),
      role: 'admin',
      expiresAt: expect.any(String),
      acceptUrl: `${APP_URL}/accept-invite?token=${data.token}`,
      token: expect.stringMatching(/^inv_[A-Za-z0-9_-]{43}$/),
    });
    const expiresAt = Date.parse(data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY_MS);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);

    const row = await app.deps.db('invites').where({ id: data.id }).first();
    expect(row).toMatchObject({
      operator_id: acme.operatorId,
      email: email.toLowerCase(),
      role: 'admin',
      status: 'pending',
      token_hash: sha256(data.token),
      invited_by_member_id: await ownerMemberId(app.deps.db, acme.operatorId),
      accepted_at: null,
    });
    expect(JSON.stringify(row)).not.toContain(data.token.slice(4));
  });

  it('a new invite for the same email revokes the pending one (any case)', async () => {
    const email = freshEmail();
    const first = await inviteMember(app, acme.accessToken, 'member', email);
    const second = await inviteMember(app, acme.accessToken, 'admin', email.toUpperCase());
    const rows = await app.deps.db('invites').whereRaw('lower(email) = ?', [email]).orderBy('created_at');
    expect(rows.map((row) => [row.id, row.status])).toEqual([
      [first.id, 'revoked'],
      [second.id, 'pending'],
    ]);
    expect((await lookup(first.token)).body.data).toEqual({ valid: false, reason: 'revoked' });
    expect((await lookup(second.token)).body.data).toEqual({ valid: true, email, role: 'admin', orgName: 'Acme Casino' });
  });
});

describe('GET /operators/me/invites', () => {
  it('lists pending invites newest first, flags expired ones, leaves out revoked and accepted ones', async () => {
    const operator = await signupOperator(app.url, 'Listing Ltd');
    const old = await inviteMember(app, operator.accessToken, 'member');
    const revoked = await inviteMember(app, operator.accessToken, 'member');
    const accepted = await inviteMember(app, operator.accessToken, 'member');
    const fresh = await inviteMember(app, operator.accessToken, 'admin');
    await expireInvite(app.deps.db, old.id);
    expect((await revoke(operator.accessToken, revoked.id)).status).toBe(200);
    expect((await acceptInvite(app, accepted.token)).status).toBe(200);

    const response = await http(url(), { token: operator.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.data.count).toBe(2);
    const row = await app.deps.db('invites').where({ id: fresh.id }).first();
    expect(response.body.data.invites).toEqual([
      {
        id: fresh.id,
        email: fresh.email,
        role: 'admin',
        status: 'pending',
        expiresAt: fresh.expiresAt,
        expired: false,
        createdAt: row.created_at.toISOString(),
      },
      expect.objectContaining({ id: old.id, status: 'pending', expired: true }),
    ]);
  });
});

describe('POST /operators/me/invites/:id/resend', () => {
  it('issues a new token, invalidates the old link and resets an expired window to 7 days', async () => {
    const invite = await inviteMember(app, acme.accessToken, 'member');
    await expireInvite(app.deps.db, invite.id);
    expect((await lookup(invite.token)).body.data).toEqual({ valid: false, reason: 'expired' });
    const before = Date.now();
    const response = await resend(acme.accessToken, invite.id);
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toEqual({
      id: invite.id,
      expiresAt: expect.any(String),
      acceptUrl: `${APP_URL}/accept-invite?token=${data.token}`,
      token: expect.stringMatching(/^inv_/),
    });
    expect(data.token).not.toBe(invite.token);
    expect(Date.parse(data.expiresAt)).toBeGreaterThanOrEqual(before + 7 * DAY_MS);
    expect((await app.deps.db('invites').where({ id: invite.id }).first()).token_hash).toBe(sha256(data.token));
    expect((await lookup(invite.token)).body.data).toEqual({ valid: false, reason: 'invalid' });
    expect((await lookup(data.token)).body.data.valid).toBe(true);
    expect((await acceptInvite(app, invite.token)).body).toEqual(failure('INVALID_TOKEN', 'This invite link is malformed or no longer valid'));
  });

  it("404 NOT_FOUND for an unknown, malformed, revoked, accepted or another operator's invite", async () => {
    const revoked = await inviteMember(app, acme.accessToken);
    await revoke(acme.accessToken, revoked.id);
    const accepted = await inviteMember(app, acme.accessToken);
    await acceptInvite(app, accepted.token);
    const foreign = await inviteMember(app, (await signupOperator(app.url, 'Foreign')).accessToken);
    for (const id of [randomUUID(), 'nope', revoked.id, accepted.id, foreign.id]) {
      const response = await resend(acme.accessToken, id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(failure('NOT_FOUND', 'No pending invite with that id'));
    }
    expect((await lookup(foreign.token)).body.data.valid).toBe(true);
  });

  it('403 FORBIDDEN for an Admin resending an admin invite; allowed for a member invite', async () => {
    const { accessToken } = await admin();
    const adminInvite = await inviteMember(app, acme.accessToken, 'admin');
    const memberInvite = await inviteMember(app, acme.accessToken, 'member');
    const refused = await resend(accessToken, adminInvite.id);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(failure('FORBIDDEN', 'An Admin can invite Members only'));
    expect((await lookup(adminInvite.token)).body.data.valid).toBe(true);
    expect((await resend(accessToken, memberInvite.id)).status).toBe(200);
  });

  it('409 ALREADY_MEMBER when the email has joined this organisation since; an account elsewhere is no answer', async () => {
    const pending = await inviteMember(app, acme.accessToken);
    const [user] = await app.deps.db('users').insert({ email: pending.email, password_hash: 'not-used' }).returning(['id']);
    await app.deps.db('members').insert({ operator_id: acme.operatorId, user_id: user.id, role: 'member', status: 'active' });
    const response = await resend(acme.accessToken, pending.id);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(failure('ALREADY_MEMBER', 'This email already has an account in this organisation'));

    const invite = await inviteMember(app, acme.accessToken);
    await http(`${app.url}/auth/v1/signup`, { body: { email: invite.email, password: 'their-own-org-1', organisationName: 'Own' } });
    expect((await resend(acme.accessToken, invite.id)).status).toBe(200);
  });
});

describe('DELETE /operators/me/invites/:id', () => {
  it('revokes a pending invite: the link stops working and a second revoke is 404', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    const response = await revoke(acme.accessToken, invite.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { id: invite.id, status: 'revoked' } });
    expect((await app.deps.db('invites').where({ id: invite.id }).first()).status).toBe('revoked');
    expect((await lookup(invite.token)).body.data).toEqual({ valid: false, reason: 'revoked' });
    expect((await acceptInvite(app, invite.token)).status).toBe(400);
    expect((await revoke(acme.accessToken, invite.id)).body).toEqual(failure('NOT_FOUND', 'No pending invite with that id'));
  });

  it('403 FORBIDDEN for an Admin revoking an admin invite; allowed for a member invite', async () => {
    const { accessToken } = await admin();
    const adminInvite = await inviteMember(app, acme.accessToken, 'admin');
    const memberInvite = await inviteMember(app, acme.accessToken, 'member');
    expect((await revoke(accessToken, adminInvite.id)).body).toEqual(failure('FORBIDDEN', 'An Admin can invite Members only'));
    expect((await app.deps.db('invites').where({ id: adminInvite.id }).first()).status).toBe('pending');
    expect((await revoke(accessToken, memberInvite.id)).body.data).toEqual({ id: memberInvite.id, status: 'revoked' });
  });
});

describe('tenant isolation', () => {
  it("another operator neither lists, resends nor revokes this operator's invites", async () => {
    const rival = await signupOperator(app.url, 'Rival Bets');
    const invite = await inviteMember(app, acme.accessToken);
    const listed = await http(url(), { token: rival.accessToken });
    expect(listed.body.data).toEqual({ invites: [], count: 0 });
    expect((await resend(rival.accessToken, invite.id)).status).toBe(404);
    expect((await revoke(rival.accessToken, invite.id)).status).toBe(404);
    const row = await app.deps.db('invites').where({ id: invite.id }).first();
    expect(row).toMatchObject({ status: 'pending', token_hash: sha256(invite.token) });
  });
});
