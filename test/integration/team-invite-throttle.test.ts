import { randomInt } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { http, type HttpResult } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { addMemberAndSignIn } from '../helpers/members';
import { freshEmail, inviteMember, teamUrl } from '../helpers/team';

/**
 * Invites sent (created or resent) are throttled per acting user and per organisation per hour; the public lookup
 * and accept per client address per minute. Low limits here; `TRUST_PROXY` lets each test speak from its own address,
 * since the counters are shared through PostgreSQL with every other test app on 127.0.0.1.
 */
let app: TestApp;
let acme: TestOperator;

beforeAll(async () => {
  app = await startTestApp({
    RATE_LIMIT_INVITES_PER_MEMBER: '3',
    RATE_LIMIT_INVITES_PER_OPERATOR: '5',
    RATE_LIMIT_INVITES_PUBLIC: '4',
    TRUST_PROXY: 'true',
  });
  acme = await signupOperator(app.url, 'Throttled Casino');
});
afterAll(() => app.close());

const create = (token: string, email = freshEmail()) => http(teamUrl(app, '/operators/me/invites'), { token, body: { email, role: 'member' } });
const resend = (token: string, id: string) => http(teamUrl(app, `/operators/me/invites/${id}/resend`), { method: 'POST', token });
const invitesOf = async (operatorId: string) => Number((await app.deps.db('invites').where({ operator_id: operatorId }).count({ n: '*' }))[0]!.n);

/** A 429 in the team area's shape, with `Retry-After` in seconds within the class's window. */
function expectRateLimited(response: HttpResult, name: string, windowSeconds: number): void {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(response.body).toEqual({ success: false, code: 'RATE_LIMITED', error: `Rate limit exceeded for ${name}; retry after ${retryAfter} s` });
}

describe('POST /operators/me/invites and /resend: per user and per organisation, per hour', () => {
  it("429 past the acting user's budget (RATE_LIMIT_INVITES_PER_MEMBER): no invite made, no email; resends count too", async () => {
    const owner = await signupOperator(app.url, 'Busy Owner Casino');
    const sent = [];
    for (let i = 0; i < 2; i += 1) sent.push(await inviteMember(app, owner.accessToken));
    expect((await resend(owner.accessToken, sent[0]!.id)).status).toBe(200);

    const before = await invitesOf(owner.operatorId);
    expectRateLimited(await create(owner.accessToken), 'invites:member', 3600);
    expectRateLimited(await resend(owner.accessToken, sent[1]!.id), 'invites:member', 3600);
    expect(await invitesOf(owner.operatorId)).toBe(before);
  });

  it("429 past the organisation's budget (RATE_LIMIT_INVITES_PER_OPERATOR) whoever asks; other organisations keep theirs", async () => {
    const owner = acme;
    const firstAdmin = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'admin');
    const secondAdmin = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'admin');
    for (let i = 0; i < 3; i += 1) expect((await create(owner.accessToken)).status).toBe(201);
    for (let i = 0; i < 2; i += 1) expect((await create(firstAdmin.accessToken)).status).toBe(201);

    expectRateLimited(await create(firstAdmin.accessToken), 'invites:operator', 3600);
    expectRateLimited(await create(secondAdmin.accessToken), 'invites:operator', 3600);
    expect(await invitesOf(owner.operatorId)).toBe(5);

    const rival = await signupOperator(app.url, 'Rival Casino');
    expect((await create(rival.accessToken)).status).toBe(201);
  });

  it('a Member is refused (403) before any budget is spent', async () => {
    const owner = await signupOperator(app.url, 'Member Casino');
    const member = await addMemberAndSignIn(app.deps.db, app.url, owner.operatorId, 'member');
    for (let i = 0; i < 6; i += 1) {
      expect(await create(member.accessToken)).toMatchObject({
        status: 403,
        body: { success: false, code: 'FORBIDDEN', error: 'Only the Owner or an Admin can manage the team' },
      });
    }
    expect((await create(owner.accessToken)).status).toBe(201);
  });
});

describe('GET /invites/lookup and POST /invites/accept: per client address, per minute', () => {
  const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const lookup = (from: string, token = 'inv_unknown') =>
    http(teamUrl(app, `/invites/lookup?token=${encodeURIComponent(token)}`), { headers: { 'x-forwarded-for': from } });
  const accept = (from: string, token: string) =>
    http(teamUrl(app, '/invites/accept'), {
      headers: { 'x-forwarded-for': from },
      body: { token, password: 'invitee-password-1', first_name: 'Ada', last_name: 'Lovelace' },
    });

  it('429 past RATE_LIMIT_INVITES_PUBLIC from one address, for lookup and accept alike; another address is unaffected', async () => {
    const from = address();
    const invite = await inviteMember(app, (await signupOperator(app.url, 'Public Casino')).accessToken);
    for (let i = 0; i < 3; i += 1)
      expect(await lookup(from)).toMatchObject({ status: 200, body: { success: true, data: { valid: false, reason: 'invalid' } } });
    expect((await lookup(from, invite.token)).body.data.valid).toBe(true);

    expectRateLimited(await lookup(from, invite.token), 'invites:public', 60);
    expectRateLimited(await accept(from, invite.token), 'invites:public', 60);
    expect(await app.deps.db('users').whereRaw('lower(email) = lower(?)', [invite.email]).first()).toBeUndefined();

    const elsewhere = address();
    expect((await lookup(elsewhere, invite.token)).body.data.valid).toBe(true);
    expect((await accept(elsewhere, invite.token)).status).toBe(200);
  });

  it('counts malformed accepts too: a token-guessing client is stopped by the same budget', async () => {
    const from = address();
    for (let i = 0; i < 4; i += 1) {
      expect(await accept(from, `inv_guess-${i}`)).toMatchObject({
        status: 400,
        body: { success: false, code: 'INVALID_TOKEN', error: 'This invite link is malformed or no longer valid' },
      });
    }
    expectRateLimited(await accept(from, 'inv_guess-5'), 'invites:public', 60);
  });
});
