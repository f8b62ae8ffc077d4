import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

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
export const ISSUER = 'operator-platform';
const AUDIENCE = 'operator-platform:session';

/** The HS256 key of `JWT_SECRET`. */
export function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/**
 * Signs a short-lived HS256 access token for a member session.
 *
 * @example await signAccessToken({ userId, operatorId, memberId, sessionVersion: 1 }, secret, 3600)
 */
export async function signAccessToken(claims: SessionClaims, secret: string, ttlSeconds: number): Promise<string> {
  return new SignJWT({ op: claims.operatorId, mid: claims.memberId, sv: claims.sessionVersion, ...(claims.sessionId ? { sid: claims.sessionId } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keyOf(secret));
}

/** Verifies signature, issuer, audience and expiry; returns null for any token that does not pass. */
export async function verifyAccessToken(token: string, secret: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    const { sub, op, mid, sv, sid } = payload;
    if (typeof sub !== 'string' || typeof op !== 'string' || typeof mid !== 'string' || typeof sv !== 'number') {
      return null;
    }
    return { userId: sub, operatorId: op, memberId: mid, sessionVersion: sv, ...(typeof sid === 'string' ? { sessionId: sid } : {}) };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
