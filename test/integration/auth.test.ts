import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const tokenUrl = (grant: string) => `${app.url}/auth/v1/token?grant_type=${grant}`;

describe('POST /auth/v1/signup', () => {
  it('400 MISSING_FIELDS naming each missing field', async () => {
    const response = await http(`${app.url}/auth/v1/signup`, { body: { email: 'a@b.test' } });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.error.code).toBe('MISSING_FIELDS');
    expect(response.body.error.message).toBe('Missing required fields: password, organisationName');
  });

  it('400 VALIDATION_FAILED for a bad email and a short password', async () => {
    const response = await http(`${app.url}/auth/v1/signup`, { body: { email: 'nope', password: 'short', organisationName: 'X' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'password']);
  });

  it('201 creates the operator with the caller as Owner; the password is stored as a scrypt hash', async () => {
    const email = `Owner-${randomUUID()}@Example.test`;
    const response = await http(`${app.url}/functions/v1/auth/v1/signup`, { body: { email, password: 'long-enough-pw', organisationName: 'Lucky Spins' } });
    expect(response.status).toBe(201);
    const { user, operator, session } = response.body.data;
    expect(user).toEqual({ id: expect.any(String), email: email.toLowerCase() });
    expect(operator).toEqual({ id: expect.any(String), name: 'Lucky Spins' });
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { id: user.id, email: email.toLowerCase() } });
    const member = await app.deps.db('members').where({ user_id: user.id }).first();
    expect(member).toMatchObject({ operator_id: operator.id, role: 'owner', status: 'active' });
    const stored = await app.deps.db('users').where({ id: user.id }).first();
    expect(stored.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored.password_hash).not.toContain('long-enough-pw');
    const refresh = await app.deps.db('refresh_tokens').where({ member_id: member.id }).first();
    expect(refresh.token_hash).not.toBe(session.refresh_token);
  });

  it('409 EMAIL_TAKEN for an email that already has an account, whatever its case', async () => {
    const owner = await signupOperator(app.url);
    const response = await http(`${app.url}/auth/v1/signup`, {
      body: { email: owner.email.toUpperCase(), password: 'another-password', organisationName: 'Dup' },
    });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('EMAIL_TAKEN');
  });
});

describe('POST /auth/v1/token', () => {
  it('password grant issues a session that authenticates', async () => {
    const owner = await signupOperator(app.url);
    const response = await http(tokenUrl('password'), { body: { email: owner.email, password: owner.password } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^rt_/),
      user: { id: owner.userId, email: owner.email },
    });
    expect((await http(`${app.url}/api-keys`, { token: response.body.access_token })).status).toBe(200);
  });

  it('400 invalid_grant for a wrong password and for an unknown email', async () => {
    const owner = await signupOperator(app.url);
    for (const body of [
      { email: owner.email, password: 'wrong-password' },
      { email: `nobody-${randomUUID()}@example.test`, password: 'whatever1' },
    ]) {
      const response = await http(tokenUrl('password'), { body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid login credentials' });
    }
  });

  it('400 invalid_request and unsupported_grant_type', async () => {
    const missing = await http(tokenUrl('password'), { body: { email: 'x@y.test' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const unsupported = await http(tokenUrl('client_credentials'), { body: {} });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.error).toBe('unsupported_grant_type');
  });

  it('refresh grant rotates: a refresh token works exactly once', async () => {
    const owner = await signupOperator(app.url);
    const first = await http(tokenUrl('refresh_token'), { body: { refresh_token: owner.refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(owner.refreshToken);
    expect((await http(`${app.url}/api-keys`, { token: first.body.access_token })).status).toBe(200);
    const replay = await http(tokenUrl('refresh_token'), { body: { refresh_token: owner.refreshToken } });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
  });

  it('a suspended member is signed out at once and cannot sign in or refresh', async () => {
    const owner = await signupOperator(app.url);
    const member = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'member');
    const session = await http(tokenUrl('password'), { body: { email: member.email, password: member.password } });
    expect((await http(`${app.url}/api-keys`, { token: member.accessToken })).status).toBe(200);

    await app.deps
      .db('members')
      .where({ id: member.memberId, operator_id: owner.operatorId })
      .update({ status: 'suspended', session_version: app.deps.db.raw('session_version + 1') });

    // The API's member cache hears of a change made in SQL through NOTIFY (docs/performance.md): a few milliseconds, more under load.
    let old = await http(`${app.url}/api-keys`, { token: member.accessToken });
    for (const deadline = Date.now() + 2_000; old.status === 200 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      old = await http(`${app.url}/api-keys`, { token: member.accessToken });
    }
    expect(old.status).toBe(401);
    const login = await http(tokenUrl('password'), { body: { email: member.email, password: member.password } });
    expect(login.status).toBe(400);
    expect(login.body).toEqual({ error: 'invalid_grant', error_description: 'This account has been suspended' });
    const refresh = await http(tokenUrl('refresh_token'), { body: { refresh_token: session.body.refresh_token } });
    expect(refresh.status).toBe(400);
  });
});
