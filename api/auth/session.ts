import { randomUUID } from 'node:crypto';
import { storeRefreshToken } from '../../commands/sessions';
import { signAccessToken } from '../../core/sessionToken';
import type { MemberRow } from '../../db/queries/identity';
import type { AppDeps } from '../deps';

export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  user: { id: string; email: string };
}

/**
 * Issues a session: a signed access JWT plus a single-use refresh token stored only as its hash.
 * Used by signup, both token grants and invite acceptance. A sign-in starts a new session id; a refresh
 * passes its token's id on, so a local logout can end one sign-in and leave the member's others alone.
 */
export async function issueSession(
  deps: Pick<AppDeps, 'db' | 'config' | 'jwtSecret'>,
  user: { id: string; email: string },
  member: Pick<MemberRow, 'id' | 'operator_id' | 'session_version'>,
  sessionId: string = randomUUID(),
): Promise<SessionResponse> {
  const ttl = deps.config.JWT_ACCESS_TTL_SECONDS;
  const accessToken = await signAccessToken(
    { userId: user.id, operatorId: member.operator_id, memberId: member.id, sessionVersion: member.session_version, sessionId },
    deps.jwtSecret,
    ttl,
  );
  const refreshToken = await storeRefreshToken(deps, member, sessionId);
  return { access_token: accessToken, token_type: 'bearer', expires_in: ttl, refresh_token: refreshToken, user: { id: user.id, email: user.email } };
}
