import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { createApiKey, signupOperator } from '../helpers/identity';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/**
 * Realtime is not a platform feature, but supabase-js builds its client eagerly and refuses to start on
 * Node 20 (no global WebSocket); this stand-in is never connected.
 */
class NoWebSocket {
  constructor() {
    throw new Error('realtime is not offered by the platform');
  }
}

/** The official client against the real app: `/auth/v1` is GoTrue's path under the project URL. */
function supabase(): SupabaseClient {
  return createClient(app.url, 'anon-key-unused-by-the-platform', {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: NoWebSocket as never },
  });
}

async function signIn(email: string, password: string): Promise<SupabaseClient> {
  const client = supabase();
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return client;
}

const refreshRows = (memberUserId: string) =>
  app.deps
    .db('refresh_tokens as r')
    .join('members as m', 'm.id', 'r.member_id')
    .where('m.user_id', memberUserId)
    .select('r.session_id', 'r.used_at', 'r.revoked_at');

describe('GET /auth/v1/user and POST /auth/v1/logout: protection', () => {
  it.each([
    ['GET', '/auth/v1/user'],
    ['POST', '/auth/v1/logout'],
  ])('%s %s is 401 invalid_token without a session, with a bad token and with an API key', async (method, path) => {
    const owner = await signupOperator(app.url);
    const key = await createApiKey(app.url, owner);
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'Authorization header is required'],
      ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl', 'Invalid credentials'],
      [key.key, 'A session token is required'],
    ];
    for (const [token, description] of cases) {
      const response = await http(`${app.url}${path}`, { method, token });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'invalid_token', error_description: description });
    }
  });

  it('a suspended member\'s session is 401 "Credentials have been revoked"', async () => {
    const owner = await signupOperator(app.url);
    await app.deps.db('members').where({ operator_id: owner.operatorId, user_id: owner.userId }).update({ status: 'suspended' });
    const response = await http(`${app.url}/auth/v1/user`, { token: owner.accessToken });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'invalid_token', error_description: 'Credentials have been revoked' });
  });
});

describe('POST /auth/v1/logout: errors', () => {
  it('400 invalid_request for an unknown scope, and nothing is revoked', async () => {
    const owner = await signupOperator(app.url);
    const response = await http(`${app.url}/auth/v1/logout?scope=everywhere`, { method: 'POST', token: owner.accessToken });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_request', error_description: 'scope must be global, local or others' });
    expect((await refreshRows(owner.userId)).every((row) => row.revoked_at === null)).toBe(true);
  });
});

describe('POST /auth/v1/signup with data.organisationName', () => {
  it('400 MISSING_FIELDS when the name is in neither place', async () => {
    const response = await http(`${app.url}/auth/v1/signup`, { body: { email: `x-${randomUUID()}@example.test`, password: 'long-enough-pw', data: {} } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('MISSING_FIELDS');
    expect(response.body.error.message).toBe('Missing required fields: organisationName');
  });

  it('supabase-js signUp with options.data creates the organisation and signs the Owner in', async () => {
    const client = supabase();
    const email = `owner-${randomUUID()}@example.test`;
    const { data, error } = await client.auth.signUp({ email, password: 'a-long-password', options: { data: { organisationName: 'Royal Reels' } } });
    expect(error).toBeNull();
    expect(data.user).toEqual({ id: expect.any(String), email });
    expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600, refresh_token: expect.stringMatching(/^rt_/), user: { email } });
    const member = await app.deps
      .db('members as m')
      .join('operators as o', 'o.id', 'm.operator_id')
      .where('m.user_id', data.user!.id)
      .first('m.role', 'o.name');
    expect(member).toEqual({ role: 'owner', name: 'Royal Reels' });
    const { data: current } = await client.auth.getSession();
    expect(current.session?.access_token).toBe(data.session!.access_token);
  });
});

describe('supabase-js from a browser on another origin', () => {
  it('the CORS preflight allows the headers supabase-js sends', async () => {
    const response = await fetch(`${app.url}/auth/v1/user`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://casino.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,apikey,x-client-info,x-supabase-api-version',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://casino.example');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'apikey', 'x-client-info', 'x-supabase-api-version']));
  });
});

describe('supabase-js against /auth/v1', () => {
  it('getUser returns the user with organisation and role in app_metadata', async () => {
    const owner = await signupOperator(app.url, 'Spin Palace');
    const client = await signIn(owner.email, owner.password);
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    const member = await app.deps.db('members').where({ user_id: owner.userId }).first('id');
    expect(data.user).toEqual({
      id: owner.userId,
      aud: 'authenticated',
      role: 'authenticated',
      email: owner.email,
      app_metadata: {
        provider: 'email',
        providers: ['email'],
        operator_id: owner.operatorId,
        operator_name: 'Spin Palace',
        member_id: member.id,
        member_role: 'owner',
      },
      user_metadata: { display_name: owner.email.split('@')[0] },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('signOut() (scope global) revokes every refresh token and ends every access token of the member', async () => {
    const owner = await signupOperator(app.url);
    const laptop = await signIn(owner.email, owner.password);
    const phone = await signIn(owner.email, owner.password);
    const { data: before } = await phone.auth.getSession();
    const versionBefore = (await app.deps.db('members').where({ user_id: owner.userId }).first('session_version')).session_version;

    expect((await laptop.auth.signOut()).error).toBeNull();

    expect((await laptop.auth.getSession()).data.session).toBeNull();
    const refresh = await http(`${app.url}/auth/v1/token?grant_type=refresh_token`, { body: { refresh_token: before.session!.refresh_token } });
    expect(refresh.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid or expired refresh token' });
    expect((await http(`${app.url}/api-keys`, { token: before.session!.access_token })).status).toBe(401);
    const rows = await refreshRows(owner.userId);
    expect(rows.filter((row) => row.used_at === null && row.revoked_at === null)).toEqual([]);
    const after = await app.deps.db('members').where({ user_id: owner.userId }).first('session_version', 'status');
    expect(after).toEqual({ session_version: versionBefore + 1, status: 'active' });
    expect((await signIn(owner.email, owner.password).then((client) => client.auth.getUser())).error).toBeNull();
  });

  it('signOut({ scope: "local" }) revokes only this sign-in, across its refreshes; the other sign-in keeps refreshing', async () => {
    const owner = await signupOperator(app.url);
    const laptop = await signIn(owner.email, owner.password);
    const phone = await signIn(owner.email, owner.password);
    const refreshed = await laptop.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const laptopRefresh = refreshed.data.session!.refresh_token;

    expect((await laptop.auth.signOut({ scope: 'local' })).error).toBeNull();

    const replay = await http(`${app.url}/auth/v1/token?grant_type=refresh_token`, { body: { refresh_token: laptopRefresh } });
    expect(replay.status).toBe(400);
    const phoneRefresh = await phone.auth.refreshSession();
    expect(phoneRefresh.error).toBeNull();
    const rows = await refreshRows(owner.userId);
    const revokedSessions = new Set(rows.filter((row) => row.revoked_at !== null).map((row) => row.session_id));
    expect(revokedSessions.size).toBe(1);
    expect(rows.filter((row) => row.session_id === [...revokedSessions][0]).length).toBe(2);
  });

  it('signOut({ scope: "others" }) keeps this sign-in and revokes the rest', async () => {
    const owner = await signupOperator(app.url);
    const laptop = await signIn(owner.email, owner.password);
    const phone = await signIn(owner.email, owner.password);
    const { data: phoneSession } = await phone.auth.getSession();

    expect((await laptop.auth.signOut({ scope: 'others' })).error).toBeNull();

    expect((await laptop.auth.refreshSession()).error).toBeNull();
    const phoneRefresh = await http(`${app.url}/auth/v1/token?grant_type=refresh_token`, { body: { refresh_token: phoneSession.session!.refresh_token } });
    expect(phoneRefresh.status).toBe(400);
    expect((await laptop.auth.getUser()).data.user?.id).toBe(owner.userId);
  });
});
