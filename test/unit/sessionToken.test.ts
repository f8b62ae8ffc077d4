import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import { looksLikeJwt, signAccessToken, verifyAccessToken, type SessionClaims } from '../../core/sessionToken';

const SECRET = 'a'.repeat(32) + '-session-test-secret';
const ISSUER = 'operator-platform';
const AUDIENCE = 'operator-platform:session';

const claims: SessionClaims = {
  userId: '550e8400-e29b-41d4-a716-446655440000',
  operatorId: '123e4567-e89b-42d3-a456-426614174000',
  memberId: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
  sessionVersion: 3,
};

const key = (secret: string): Uint8Array => new TextEncoder().encode(secret);

/** A JWT carrying the same payload shape as signAccessToken, with every registered claim overridable. */
function customToken(options: { issuer?: string; audience?: string; expiresAt?: number | string; alg?: string; payload?: Record<string, unknown> }): SignJWT {
  const jwt = new SignJWT(options.payload ?? { op: claims.operatorId, mid: claims.memberId, sv: claims.sessionVersion })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt();
  return jwt.setExpirationTime(options.expiresAt ?? '1h');
}

describe('signAccessToken / verifyAccessToken', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('round-trips the claims', async () => {
    const token = await signAccessToken(claims, SECRET, 3600);
    expect(looksLikeJwt(token)).toBe(true);
    await expect(verifyAccessToken(token, SECRET)).resolves.toEqual(claims);
  });

  it('carries the session id as `sid` when there is one (logout ends that sign-in)', async () => {
    const withSession = { ...claims, sessionId: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };
    const token = await signAccessToken(withSession, SECRET, 3600);
    expect(decodeJwt(token).sid).toBe(withSession.sessionId);
    await expect(verifyAccessToken(token, SECRET)).resolves.toEqual(withSession);
  });

  it('signs HS256 with the issuer, audience, subject and requested lifetime', async () => {
    const token = await signAccessToken(claims, SECRET, 600);
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as unknown;
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({ iss: ISSUER, aud: AUDIENCE, sub: claims.userId, op: claims.operatorId });
    expect(typeof payload.iat).toBe('number');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
  });

  it('returns null for a token signed with another secret', async () => {
    const token = await signAccessToken(claims, SECRET, 3600);
    await expect(verifyAccessToken(token, 'b'.repeat(32) + '-another-secret')).resolves.toBeNull();
  });

  it('returns null for an expired token (past exp)', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const token = await customToken({ expiresAt: past }).sign(key(SECRET));
    await expect(verifyAccessToken(token, SECRET)).resolves.toBeNull();
  });

  it('returns null once a signed token outlives its ttl', async () => {
    const token = await signAccessToken(claims, SECRET, 1);
    await expect(verifyAccessToken(token, SECRET)).resolves.toEqual(claims);
    jest.useFakeTimers({ now: Date.now() + 2100, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    await expect(verifyAccessToken(token, SECRET)).resolves.toBeNull();
  });

  it('returns null for a tampered payload', async () => {
    const token = await signAccessToken(claims, SECRET, 3600);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...decoded, op: 'another-operator' }), 'utf8').toString('base64url');
    await expect(verifyAccessToken(`${header}.${forged}.${signature}`, SECRET)).resolves.toBeNull();
  });

  it('returns null for a tampered signature', async () => {
    const token = await signAccessToken(claims, SECRET, 3600);
    // Flip a character in the middle of the signature: the last base64url character carries padding
    // bits, so changing it may leave the decoded signature unchanged.
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const middle = Math.floor(signature.length / 2);
    const flipped = signature[middle] === 'A' ? 'B' : 'A';
    const tampered = `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`;
    await expect(verifyAccessToken(tampered, SECRET)).resolves.toBeNull();
  });

  it('returns null for the right secret but the wrong audience', async () => {
    const token = await customToken({ audience: 'operator-platform:refresh' }).sign(key(SECRET));
    await expect(verifyAccessToken(token, SECRET)).resolves.toBeNull();
  });

  it('returns null for the right secret but the wrong issuer', async () => {
    const token = await customToken({ issuer: 'someone-else' }).sign(key(SECRET));
    await expect(verifyAccessToken(token, SECRET)).resolves.toBeNull();
  });

  it('accepts a hand-built token with the right issuer and audience (control)', async () => {
    const token = await customToken({}).sign(key(SECRET));
    await expect(verifyAccessToken(token, SECRET)).resolves.toEqual(claims);
  });

  it('returns null for an HMAC algorithm other than HS256', async () => {
    const token = await customToken({ alg: 'HS512' }).sign(key(SECRET));
    await expect(verifyAccessToken(token, SECRET)).resolves.toBeNull();
  });

  it('returns null for an unsecured (alg "none") token', async () => {
    const token = new UnsecuredJWT({ op: claims.operatorId, mid: claims.memberId, sv: claims.sessionVersion })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    await expect(verifyAccessToken(token, SECRET)).resolves.toBeNull();
  });

  it('returns null when a session claim has the wrong type or is missing', async () => {
    const wrongType = await customToken({ payload: { op: claims.operatorId, mid: claims.memberId, sv: '3' } }).sign(key(SECRET));
    await expect(verifyAccessToken(wrongType, SECRET)).resolves.toBeNull();
    const missing = await customToken({ payload: { op: claims.operatorId, sv: 3 } }).sign(key(SECRET));
    await expect(verifyAccessToken(missing, SECRET)).resolves.toBeNull();
  });

  it.each(['', 'not-a-jwt', 'a.b.c', 'svc_live_' + 'a'.repeat(64)])('returns null for garbage %j', async (garbage) => {
    await expect(verifyAccessToken(garbage, SECRET)).resolves.toBeNull();
  });
});

describe('looksLikeJwt', () => {
  it('accepts three base64url segments', async () => {
    expect(looksLikeJwt('a.b.c')).toBe(true);
    expect(looksLikeJwt('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.abc-_DEF123')).toBe(true);
    expect(looksLikeJwt(await signAccessToken(claims, SECRET, 60))).toBe(true);
  });

  it.each([
    ['empty string', ''],
    ['an API key', 'svc_live_' + 'a'.repeat(64)],
    ['two segments', 'a.b'],
    ['four segments', 'a.b.c.d'],
    ['an empty segment', 'a..c'],
    ['a trailing dot', 'a.b.c.'],
    ['standard base64 padding', 'a.b.c='],
    ['standard base64 characters', 'a+b.c/d.e'],
    ['whitespace', 'a.b.c '],
    ['a Bearer prefix', 'Bearer a.b.c'],
  ])('rejects %s', (_label, value) => {
    expect(looksLikeJwt(value)).toBe(false);
  });
});
