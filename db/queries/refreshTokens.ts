import type { Db } from '../knex';

export async function insertRefreshToken(
  db: Db,
  input: { operatorId: string; memberId: string; sessionId: string; tokenHash: string; sessionVersion: number; expiresAt: Date },
): Promise<void> {
  await db('refresh_tokens').insert({
    operator_id: input.operatorId,
    member_id: input.memberId,
    session_id: input.sessionId,
    token_hash: input.tokenHash,
    session_version: input.sessionVersion,
    expires_at: input.expiresAt,
  });
}

/**
 * Marks a refresh token used and returns its owner, atomically: a token works exactly once, and an
 * expired, revoked or already-used token returns nothing.
 */
export async function consumeRefreshToken(
  db: Db,
  tokenHash: string,
): Promise<{ operator_id: string; member_id: string; session_id: string | null; session_version: number } | undefined> {
  const [row] = await db('refresh_tokens')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .whereNull('revoked_at')
    .where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning(['operator_id', 'member_id', 'session_id', 'session_version']);
  return row;
}

/** Which of a member's sessions a logout ends (`POST /auth/v1/logout?scope=`). */
export type RevokeScope = { session: string } | { allBut: string } | 'all';

/** Revokes the member's live refresh tokens in scope; returns how many were revoked. */
export async function revokeRefreshTokens(db: Db, operatorId: string, memberId: string, scope: RevokeScope): Promise<number> {
  const query = db('refresh_tokens').where({ operator_id: operatorId, member_id: memberId }).whereNull('used_at').whereNull('revoked_at');
  if (scope !== 'all' && 'session' in scope) query.where({ session_id: scope.session });
  if (scope !== 'all' && 'allBut' in scope) query.where((inner) => inner.whereNull('session_id').orWhereNot({ session_id: scope.allBut }));
  return query.update({ revoked_at: db.fn.now() });
}
