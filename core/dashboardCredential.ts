import { signPlatformToken, verifyPlatformToken } from './sessionToken';

/**
 * The dashboard credential: what the browser presents to the data API and `/gateway`, which take API keys and
 * never a session access token (spec 4.2, 5). It is a JWT signed like the session's, but with its own audience
 * (neither token passes for the other) and behind its own prefix, so every area routes it before parsing it.
 */
export const DASHBOARD_CREDENTIAL_PREFIX = 'dsh_';
const AUDIENCE = 'operator-platform:dashboard-data';

export interface DashboardCredentialClaims {
  userId: string;
  operatorId: string;
  memberId: string;
  /** The sign-in it was issued to: ending that session (logout, refresh-token revocation) ends the credential. */
  sessionId: string;
  /** The member's session version at issue: a global logout or a suspension moves it on. */
  sessionVersion: number;
}

/** What a member may do with it: the Owner and Admins read and write, a Member reads (as everywhere else). */
export type DashboardScope = 'read' | 'read write';

export function dashboardScopeOf(role: 'owner' | 'admin' | 'member'): DashboardScope {
  return role === 'member' ? 'read' : 'read write';
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/** Whether `scope` lets a request with this HTTP method through: reading is GET and HEAD, anything else writes. */
export function scopeAllows(scope: DashboardScope, method: string): boolean {
  return scope === 'read write' || READ_METHODS.has(method.toUpperCase());
}

/**
 * Signs a dashboard credential (HS256 with `JWT_SECRET`, through jose).
 *
 * @example await signDashboardCredential({ userId, operatorId, memberId, sessionId, sessionVersion: 1 }, secret, 300)
 */
export async function signDashboardCredential(claims: DashboardCredentialClaims, secret: string, ttlSeconds: number): Promise<string> {
  const payload = { op: claims.operatorId, mid: claims.memberId, sid: claims.sessionId, sv: claims.sessionVersion };
  return DASHBOARD_CREDENTIAL_PREFIX + (await signPlatformToken(payload, claims.userId, AUDIENCE, secret, ttlSeconds));
}

/** Verifies prefix, signature, issuer, audience and expiry; null for anything that does not pass. */
export async function verifyDashboardCredential(token: string, secret: string): Promise<DashboardCredentialClaims | null> {
  if (!token.startsWith(DASHBOARD_CREDENTIAL_PREFIX)) return null;
  const payload = await verifyPlatformToken(token.slice(DASHBOARD_CREDENTIAL_PREFIX.length), AUDIENCE, secret);
  if (!payload) return null;
  const { sub, op, mid, sid, sv } = payload;
  if (typeof sub !== 'string' || typeof op !== 'string' || typeof mid !== 'string' || typeof sid !== 'string' || typeof sv !== 'number') return null;
  return { userId: sub, operatorId: op, memberId: mid, sessionId: sid, sessionVersion: sv };
}
