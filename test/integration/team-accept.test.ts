import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { acceptInvite, expireInvite, inviteMember, teamUrl } from '../helpers/team';

let app: TestApp;
let acme: TestOperator;

beforeAll(async () => {
  app = await startTestApp();
  acme = await signupOperator(app.url, 'Acme Casino');
});
afterAll(() => app.close());

const lookup = (query: string) => http(teamUrl(app, `/invites/lookup${query}`));
const lookupToken = (token: string) => lookup(`?token=${encodeURIComponent(token)}`);
const failure = (code: string, error: string) => ({ success: false, code, error });
const UNKNOWN_TOKEN = `inv_${'A'.repeat(43)}`;
const INVALID_TOKEN = failure('INVALID_TOKEN', 'This invite link is malformed or no longer valid');

describe('GET /invites/lookup (public, always 200)', () => {
  it('reason invalid for a missing, malformed or unknown token', async () => {
    for (const query of ['', '?token=', '?token=abc', `?token=${UNKNOWN_TOKEN}`, '?token=a&token=b']) {
      const response = await lookup(query);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: { valid: false, reason: 'invalid' } });
    }
  });

  it('valid with email, role and organisation name for a pending invite, without any credential', async () => {
    const invite = await inviteMember(app, acme.accessToken, 'admin');
    const response = await http(`${app.url}/functions/v1/platform-api/invites/lookup?token=${invite.token}`, { headers: { authorization: 'Bearer garbage' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { valid: true, email: invite.email, role: 'admin', orgName: 'Acme Casino' } });
  });

  it('reasons expired, accepted and revoked', async () => {
    const [expired, accepted, revoked] = await Promise.all([1, 2, 3].map(() => inviteMember(app, acme.accessToken)));
    await expireInvite(app.deps.db, expired!.id);
    expect((await acceptInvite(app, accepted!.token)).status).toBe(200);
    await http(teamUrl(app, `/operators/me/invites/${revoked!.id}`), { method: 'DELETE', token: acme.accessToken });
    for (const [invite, reason] of [
      [expired!, 'expired'],
      [accepted!, 'accepted'],
      [revoked!, 'revoked'],
    ] as const) {
      const response = await lookupToken(invite.token);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: { valid: false, reason } });
    }
  });
});

describe('POST /invites/accept — error rows', () => {
  it('400 INVALID_INPUT for missing fields, a password under 8 characters and empty names', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    const missing = await http(teamUrl(app, '/invites/accept'), { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(
      failure('INVALID_INPUT', 'Invalid input: token is required; password is required; first_name is required; last_name is required'),
    );
    const short = await acceptInvite(app, invite.token, { password: '1234567' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual(failure('INVALID_INPUT', 'Invalid input: password must be at least 8 characters'));
    const blank = await acceptInvite(app, invite.token, { first_name: '  ' });
    expect(blank.body).toEqual(failure('INVALID_INPUT', 'Invalid input: first_name must not be empty'));
    const typed = await acceptInvite(app, invite.token, { last_name: 42 });
    expect(typed.status).toBe(400);
    expect(typed.body.code).toBe('INVALID_INPUT');
    expect((await lookupToken(invite.token)).body.data.valid).toBe(true);
  });

  it('400 INVALID_TOKEN for a malformed, unknown, revoked or superseded token', async () => {
    const revoked = await inviteMember(app, acme.accessToken);
    await http(teamUrl(app, `/operators/me/invites/${revoked.id}`), { method: 'DELETE', token: acme.accessToken });
    const superseded = await inviteMember(app, acme.accessToken);
    await http(teamUrl(app, `/operators/me/invites/${superseded.id}/resend`), { method: 'POST', token: acme.accessToken });
    for (const token of ['inv_short', 'svc_live_x', UNKNOWN_TOKEN, revoked.token, superseded.token]) {
      const response = await acceptInvite(app, token);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(INVALID_TOKEN);
    }
    expect(await app.deps.db('users').whereIn('email', [revoked.email, superseded.email]).first()).toBeUndefined();
  });

  it('409 INVITE_USED for an accepted invite', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    expect((await acceptInvite(app, invite.token)).status).toBe(200);
    const again = await acceptInvite(app, invite.token, { password: 'another-password' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(failure('INVITE_USED', 'This invite has already been accepted'));
  });

  it('410 INVITE_EXPIRED past the 7-day window; nothing is created', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    await expireInvite(app.deps.db, invite.id);
    const response = await acceptInvite(app, invite.token);
    expect(response.status).toBe(410);
    expect(response.body).toEqual(failure('INVITE_EXPIRED', 'This invite has expired; ask for a new one'));
    expect(await app.deps.db('users').where({ email: invite.email }).first()).toBeUndefined();
    expect((await app.deps.db('invites').where({ id: invite.id }).first()).status).toBe('pending');
  });

  it('409 ALREADY_MEMBER when the invited email signed up elsewhere in the meantime', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    await http(`${app.url}/auth/v1/signup`, { body: { email: invite.email, password: 'elsewhere-pw-1', organisationName: 'Elsewhere' } });
    const response = await acceptInvite(app, invite.token);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(failure('ALREADY_MEMBER', 'This email already has an account'));
  });
});

describe('POST /invites/accept — success', () => {
  it('creates the login in the inviting organisation with the invited role and returns a working session', async () => {
    const invite = await inviteMember(app, acme.accessToken, 'admin');
    const response = await acceptInvite(app, invite.token, { first_name: ' Grace ', last_name: 'Hopper', password: 'a-good-password' });
    expect(response.status).toBe(200);
    const session = response.body.data;
    expect(response.body.success).toBe(true);
    expect(session).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^rt_/),
      user: { id: expect.any(String), email: invite.email },
    });

    const user = await app.deps.db('users').where({ id: session.user.id }).first();
    expect(user).toMatchObject({ email: invite.email, first_name: 'Grace', last_name: 'Hopper' });
    expect(user.password_hash).toMatch(/^scrypt\$/);
    const member = await app.deps.db('members').where({ user_id: user.id }).first();
    expect(member).toMatchObject({ operator_id: acme.operatorId, role: 'admin', status: 'active', display_name: 'Grace Hopper' });
    const row = await app.deps.db('invites').where({ id: invite.id }).first();
    expect(row.status).toBe('accepted');
    expect(row.accepted_at).toBeInstanceOf(Date);

    const list = await http(teamUrl(app, '/operators/me/members'), { token: session.access_token });
    expect(list.status).toBe(200);
    expect(list.body.data.members.find((m: { isSelf: boolean }) => m.isSelf)).toMatchObject({
      id: member.id,
      authUserId: user.id,
      email: invite.email,
      displayName: 'Grace Hopper',
      role: 'admin',
      isOwner: false,
    });
    expect((await inviteMember(app, session.access_token, 'member')).token).toMatch(/^inv_/);
    const signIn = await http(`${app.url}/auth/v1/token?grant_type=password`, { body: { email: invite.email, password: 'a-good-password' } });
    expect(signIn.status).toBe(200);
  });

  it('two concurrent accepts of one invite create one login; the other is INVITE_USED', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    const results = await Promise.all([acceptInvite(app, invite.token), acceptInvite(app, invite.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('INVITE_USED');
    expect(await app.deps.db('users').where({ email: invite.email }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});

describe('tenant isolation', () => {
  it("the accepted member belongs to the inviting organisation only and cannot reach another's members", async () => {
    const rival = await signupOperator(app.url, 'Rival Bets');
    const invite = await inviteMember(app, rival.accessToken);
    const session = (await acceptInvite(app, invite.token)).body.data;
    const mine = await http(teamUrl(app, '/operators/me/members'), { token: session.access_token });
    expect(mine.body.data.members.map((m: { email: string }) => m.email).sort()).toEqual([invite.email, rival.email].sort());
    const acmeList = await http(teamUrl(app, '/operators/me/members'), { token: acme.accessToken });
    expect(acmeList.body.data.members.map((m: { email: string }) => m.email)).not.toContain(invite.email);
    const acmeOwner = await app.deps.db('members').where({ operator_id: acme.operatorId, role: 'owner' }).first();
    expect((await http(teamUrl(app, `/operators/me/members/${acmeOwner.id}`), { method: 'DELETE', token: session.access_token })).status).toBe(403);
  });
});
