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
 * expired, revoked or already-used token returns nothing. Nor does a token of a session family with any
 * revoked token: a family is ended as a whole (logout, reuse), and this also refuses a token that a
 * concurrent rotation inserted just after its family was revoked.
 */
export async function consumeRefreshToken(
  db: Db,
  tokenHash: string,
): Promise<{ operator_id: string; member_id: string; session_id: string | null; session_version: number } | undefined> {
  const [row] = await db('refresh_tokens as t')
    .where({ 't.token_hash': tokenHash })
    .whereNull('t.used_at')
    .whereNull('t.revoked_at')
    .where('t.expires_at', '>', db.fn.now())
    .whereNotExists((ended) =>
      ended
        .select(db.raw('1'))
        .from('refresh_tokens as f')
        .whereRaw('f.operator_id = t.operator_id AND f.member_id = t.member_id AND f.session_id = t.session_id')
        .whereNotNull('f.revoked_at'),
    )
    .update({ used_at: db.fn.now() })
    .returning(['operator_id', 'member_id', 'session_id', 'session_version']);
  return row;
}

/** The session family a reused refresh token belonged to, as `revokeFamilyOfReusedToken` found it. */
export interface ReusedToken {
  operator_id: string;
  member_id: string;
  session_id: string | null;
  revoked: number;
}

/**
 * Reuse detection (OAuth 2.0 Security BCP, refresh token rotation): when `tokenHash` names a token that a
 * rotation already consumed, someone holds a copy, so every token of its session family is revoked — the
 * newest one the legitimate client holds included, and the consumed ones too, which keeps the family ended
 * should a concurrent rotation insert another token. A token from before session ids revokes all of its
 * member's tokens. Returns the family, or nothing when the token is unknown, unused or was only revoked.
 */
export async function revokeFamilyOfReusedToken(db: Db, tokenHash: string): Promise<ReusedToken | undefined> {
  const reused = await db('refresh_tokens')
    .where({ token_hash: tokenHash })
    .whereNotNull('used_at')
    .first<{ operator_id: string; member_id: string; session_id: string | null } | undefined>('operator_id', 'member_id', 'session_id');
  if (!reused) return undefined;
  const family = db('refresh_tokens').where({ operator_id: reused.operator_id, member_id: reused.member_id }).whereNull('revoked_at');
  if (reused.session_id !== null) family.where({ session_id: reused.session_id });
  const revoked = await family.update({ revoked_at: db.fn.now() });
  return { ...reused, revoked };
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

/**
 * Whether a sign-in is over: a session with any revoked refresh token is ended as a whole (logout, reuse
 * detection), and one that has no refresh token at all was never issued here. The dashboard credential asks this
 * on every request, so that signing out ends it at once rather than when it expires.
 */
export async function isSessionEnded(db: Db, operatorId: string, memberId: string, sessionId: string): Promise<boolean> {
  const row = await db('refresh_tokens')
    .where({ operator_id: operatorId, member_id: memberId, session_id: sessionId })
    .first<{ tokens: string; revoked: string } | undefined>(db.raw('count(*) as tokens'), db.raw('count(revoked_at) as revoked'));
  return !row || Number(row.tokens) === 0 || Number(row.revoked) > 0;
}
