import { SignJWT, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';

export interface SessionClaims {
  userId: string;
  operatorId: string;
  memberId: string;
  /** Bumped on suspension: a token carrying an older version no longer authenticates. */
  sessionVersion: number;
  /** The sign-in this token belongs to (its refresh-token chain); absent in tokens issued before sessions had ids. */
  sessionId?: string;
}

/** Issuer of every token the platform signs; each kind of token has its own audience. */
const ISSUER = 'operator-platform';
const AUDIENCE = 'operator-platform:session';

/** The HS256 key of `JWT_SECRET`. */
function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Signs `payload` as the platform for one audience: HS256 with `JWT_SECRET`, through jose, valid `ttlSeconds`. */
export function signPlatformToken(payload: JWTPayload, subject: string, audience: string, secret: string, ttlSeconds: number): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(subject)
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keyOf(secret));
}

/** Verifies signature, issuer, `audience` and expiry of a token the platform signed; null for any that does not pass. */
export async function verifyPlatformToken(token: string, audience: string, secret: string): Promise<JWTPayload | null> {
  try {
    return (await jwtVerify(token, keyOf(secret), { issuer: ISSUER, audience, algorithms: ['HS256'] })).payload;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/**
 * Signs a short-lived HS256 access token for a member session.
 *
 * @example await signAccessToken({ userId, operatorId, memberId, sessionVersion: 1 }, secret, 3600)
 */
export function signAccessToken(claims: SessionClaims, secret: string, ttlSeconds: number): Promise<string> {
  const payload = { op: claims.operatorId, mid: claims.memberId, sv: claims.sessionVersion, ...(claims.sessionId ? { sid: claims.sessionId } : {}) };
  return signPlatformToken(payload, claims.userId, AUDIENCE, secret, ttlSeconds);
}

/** Verifies signature, issuer, audience and expiry; returns null for any token that does not pass. */
export async function verifyAccessToken(token: string, secret: string): Promise<SessionClaims | null> {
  const payload = await verifyPlatformToken(token, AUDIENCE, secret);
  if (!payload) return null;
  const { sub, op, mid, sv, sid } = payload;
  if (typeof sub !== 'string' || typeof op !== 'string' || typeof mid !== 'string' || typeof sv !== 'number') return null;
  return { userId: sub, operatorId: op, memberId: mid, sessionVersion: sv, ...(typeof sid === 'string' ? { sessionId: sid } : {}) };
}

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
