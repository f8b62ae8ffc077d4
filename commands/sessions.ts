/**
 * The writes of a dashboard session's life (docs/identity.md "Sessions"): its refresh token stored (only as its
 * hash), rotated once, and revoked at sign-out. Signing the access JWT is the API's (it holds the secret); a refusal
 * of a refresh is a result here, since its answer is the same whatever the reason (`invalid_grant`).
 */
import { sha256Hex } from '../core/apiKeyToken';
import { secretToken } from '../core/ids';
import { bumpSessionVersion, type MemberRow } from '../db/queries/identity';
import {
  consumeRefreshToken,
  insertRefreshToken,
  revokeFamilyOfReusedToken,
  revokeRefreshTokens,
  type RevokeScope,
  type ReusedToken,
} from '../db/queries/refreshTokens';
import type { CommandDeps } from './deps';

/** Stores a new single-use refresh token of the member's sign-in `sessionId` and returns it (the only time it exists in the clear). */
export async function storeRefreshToken(
  deps: Pick<CommandDeps, 'db' | 'config'>,
  member: Pick<MemberRow, 'id' | 'operator_id' | 'session_version'>,
  sessionId: string,
): Promise<string> {
  const refreshToken = secretToken('rt');
  await insertRefreshToken(deps.db, {
    operatorId: member.operator_id,
    memberId: member.id,
    sessionId,
    tokenHash: sha256Hex(refreshToken),
    sessionVersion: member.session_version,
    expiresAt: new Date(Date.now() + deps.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000),
  });
  return refreshToken;
}

export type Rotation =
  | { kind: 'rotated'; token: { operator_id: string; member_id: string; session_id: string | null; session_version: number } }
  /** Unknown, expired or revoked; `reused` when it had been rotated already, its whole session family now revoked. */
  | { kind: 'refused'; reused?: ReusedToken };

/** Uses a refresh token up (single use). One presented again after its rotation ends its session family. */
export async function rotateRefreshToken(deps: Pick<CommandDeps, 'db'>, refreshToken: string): Promise<Rotation> {
  const tokenHash = sha256Hex(refreshToken);
  const token = await consumeRefreshToken(deps.db, tokenHash);
  if (token) return { kind: 'rotated', token };
  const reused = await revokeFamilyOfReusedToken(deps.db, tokenHash);
  return reused ? { kind: 'refused', reused } : { kind: 'refused' };
}

/**
 * Signs a member out: `global` revokes every refresh token and moves the session version on (every access token
 * ends too; a caller caching members drops them); `local` and `others` revoke this sign-in's refresh token or every
 * other one, or all of them for a token that cannot name its sign-in (`sessionId` undefined).
 */
export async function signOut(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; memberId: string; sessionId: string | undefined; scope: 'global' | 'local' | 'others' },
): Promise<void> {
  const { operatorId, memberId, sessionId, scope } = input;
  let revoke: RevokeScope = 'all';
  if (sessionId && scope === 'local') revoke = { session: sessionId };
  if (sessionId && scope === 'others') revoke = { allBut: sessionId };
  await revokeRefreshTokens(deps.db, operatorId, memberId, revoke);
  if (scope === 'global') await bumpSessionVersion(deps.db, operatorId, memberId);
}
