import { createHash, randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const INVALID = { error: 'invalid_grant', error_description: 'Invalid or expired refresh token' };
const refresh = (token: string) => http(`${app.url}/auth/v1/token?grant_type=refresh_token`, { body: { refresh_token: token } });
const signIn = (operator: TestOperator) =>
  http(`${app.url}/auth/v1/token?grant_type=password`, { body: { email: operator.email, password: operator.password } });
const rowsOf = (operator: TestOperator) =>
  app.deps
    .db('refresh_tokens as r')
    .join('members as m', 'm.id', 'r.member_id')
    .where({ 'm.user_id': operator.userId, 'r.operator_id': operator.operatorId })
    .select('r.session_id', 'r.used_at', 'r.revoked_at');

/** T0 (from signup) → T1 → T2: the legitimate client now holds T2; T0 and T1 are consumed. */
async function rotateTwice(operator: TestOperator): Promise<string[]> {
  const first = await refresh(operator.refreshToken);
  const second = await refresh(first.body.refresh_token);
  expect([first.status, second.status]).toEqual([200, 200]);
  return [operator.refreshToken, first.body.refresh_token, second.body.refresh_token];
}

describe('refresh token reuse', () => {
  it('a rotated token presented again is invalid_grant and ends its whole session family, the newest token included', async () => {
    const owner = await signupOperator(app.url, 'Reuse Casino');
    const [t0, t1, t2] = await rotateTwice(owner);

    const reuse = await refresh(t1!);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual(INVALID);

    const legitimate = await refresh(t2!);
    expect(legitimate.status).toBe(400);
    expect(legitimate.body).toEqual(INVALID);
    expect((await refresh(t0!)).body).toEqual(INVALID);
    const rows = await rowsOf(owner);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
  });

  it("leaves the member's other sign-ins, other members and other organisations alone", async () => {
    const owner = await signupOperator(app.url, 'Reuse Casino A');
    const laptop = await signIn(owner);
    const other = await signupOperator(app.url, 'Reuse Casino B');
    const [, t1] = await rotateTwice(owner);

    expect((await refresh(t1!)).body).toEqual(INVALID);

    const laptopRefresh = await refresh(laptop.body.refresh_token);
    expect(laptopRefresh.status).toBe(200);
    expect((await refresh(laptopRefresh.body.refresh_token)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it('another operator presenting a rotated token gets the same answer and ends only that family', async () => {
    const victim = await signupOperator(app.url, 'Victim Casino');
    const attacker = await signupOperator(app.url, 'Attacker Casino');
    const [, victimT1, victimT2] = await rotateTwice(victim);
    const reuse = await http(`${app.url}/auth/v1/token?grant_type=refresh_token`, {
      token: attacker.accessToken,
      body: { refresh_token: victimT1 },
    });
    expect(reuse.body).toEqual(INVALID);
    expect((await refresh(victimT2!)).body).toEqual(INVALID);
    expect((await refresh(attacker.refreshToken)).status).toBe(200);
  });

  it('keeps the family ended for a token a concurrent rotation inserts after the revocation', async () => {
    const owner = await signupOperator(app.url, 'Race Casino');
    const [, t1] = await rotateTwice(owner);
    expect((await refresh(t1!)).body).toEqual(INVALID);

    const [family] = await rowsOf(owner);
    const late = `rt_${randomBytes(32).toString('base64url')}`;
    const member = await app.deps.db('members').where({ operator_id: owner.operatorId, user_id: owner.userId }).first('id', 'session_version');
    await app.deps.db('refresh_tokens').insert({
      operator_id: owner.operatorId,
      member_id: member.id,
      session_id: family!.session_id,
      token_hash: createHash('sha256').update(late).digest('hex'),
      session_version: member.session_version,
      expires_at: new Date(Date.now() + 86_400_000),
    });
    expect((await refresh(late)).body).toEqual(INVALID);
  });

  it('an unknown or never-used token changes nothing', async () => {
    const owner = await signupOperator(app.url, 'Unknown Casino');
    expect((await refresh('rt_not-a-token')).body).toEqual(INVALID);
    expect((await rowsOf(owner)).every((row) => row.revoked_at === null)).toBe(true);
    expect((await refresh(owner.refreshToken)).status).toBe(200);
  });
});
