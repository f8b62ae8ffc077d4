import type { Db } from '../knex';

export async function insertRefreshToken(
  db: Db,
  input: { operatorId: string; memberId: string; tokenHash: string; sessionVersion: number; expiresAt: Date },
): Promise<void> {
  await db('refresh_tokens').insert({
    operator_id: input.operatorId,
    member_id: input.memberId,
    token_hash: input.tokenHash,
    session_version: input.sessionVersion,
    expires_at: input.expiresAt,
  });
}

/**
 * Marks a refresh token used and returns its owner, atomically: a token works exactly once, and an
 * expired or already-used token returns nothing.
 */
export async function consumeRefreshToken(
  db: Db,
  tokenHash: string,
): Promise<{ operator_id: string; member_id: string; session_version: number } | undefined> {
  const [row] = await db('refresh_tokens')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning(['operator_id', 'member_id', 'session_version']);
  return row;
}
