import { inviteState, type InviteStatus } from '../../core/invites';
import type { Db } from '../knex';
import type { MemberRow, UserRow } from './identity';

export interface InviteRow {
  id: string;
  operator_id: string;
  email: string;
  role: 'admin' | 'member';
  token_hash: string;
  status: InviteStatus;
  expires_at: Date;
  invited_by_member_id: string | null;
  accepted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewInvite {
  email: string;
  role: 'admin' | 'member';
  tokenHash: string;
  expiresAt: Date;
  invitedByMemberId: string;
}

/** Pending invites (expired ones included, flagged by the caller), newest first. */
export async function listPendingInvites(db: Db, operatorId: string): Promise<InviteRow[]> {
  return db<InviteRow>('invites')
    .where({ operator_id: operatorId, status: 'pending' })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

/**
 * Creates a pending invite, revoking a pending one for the same email first (spec 3.3), unless
 * `mayReplace` refuses that one (then nothing changes and `'refused'` comes back). The operator row is
 * locked so two concurrent invites for one email serialise instead of racing the unique index.
 */
export async function createInvite(db: Db, operatorId: string, input: NewInvite, mayReplace: (pending: InviteRow) => boolean): Promise<InviteRow | 'refused'> {
  return db.transaction(async (trx) => {
    await trx('operators').where({ id: operatorId }).forUpdate().first('id');
    const pending = await trx<InviteRow>('invites').where({ operator_id: operatorId, status: 'pending' }).whereRaw('lower(email) = lower(?)', [input.email]);
    if (!pending.every(mayReplace)) return 'refused';
    await trx('invites')
      .whereIn(
        'id',
        pending.map((invite) => invite.id),
      )
      .andWhere({ operator_id: operatorId })
      .update({ status: 'revoked', updated_at: trx.fn.now() });
    const [row] = await trx<InviteRow>('invites')
      .insert({
        operator_id: operatorId,
        email: input.email,
        role: input.role,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
        invited_by_member_id: input.invitedByMemberId,
      })
      .returning('*');
    return row!;
  });
}

export async function findPendingInvite(db: Db, operatorId: string, inviteId: string): Promise<InviteRow | undefined> {
  return db<InviteRow>('invites').where({ operator_id: operatorId, id: inviteId, status: 'pending' }).first();
}

/** An invite and its organisation's name, for the invite email. */
export async function findInviteWithOrganisation(db: Db, operatorId: string, inviteId: string): Promise<(InviteRow & { org_name: string }) | undefined> {
  return db('invites as i')
    .join('operators as o', 'o.id', 'i.operator_id')
    .where({ 'i.operator_id': operatorId, 'i.id': inviteId })
    .first<InviteRow & { org_name: string }>('i.*', 'o.name as org_name');
}

/** Resend: a new token hash and expiry on a still-pending invite; the old token stops matching anything. */
export async function reissueInvite(
  db: Db,
  operatorId: string,
  inviteId: string,
  next: { tokenHash: string; expiresAt: Date },
): Promise<InviteRow | undefined> {
  const [row] = await db<InviteRow>('invites')
    .where({ operator_id: operatorId, id: inviteId, status: 'pending' })
    .update({ token_hash: next.tokenHash, expires_at: next.expiresAt, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

export async function revokeInvite(db: Db, operatorId: string, inviteId: string): Promise<InviteRow | undefined> {
  const [row] = await db<InviteRow>('invites')
    .where({ operator_id: operatorId, id: inviteId, status: 'pending' })
    .update({ status: 'revoked', updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/**
 * The invite a raw token belongs to, with its organisation's name. The one invite lookup not scoped by
 * operator: on the public lookup and accept endpoints the token is what identifies the operator.
 */
export async function findInviteByTokenHash(db: Db, tokenHash: string): Promise<(InviteRow & { org_name: string }) | undefined> {
  return db('invites as i')
    .join('operators as o', 'o.id', 'i.operator_id')
    .where('i.token_hash', tokenHash)
    .first<InviteRow & { org_name: string }>('i.*', 'o.name as org_name');
}

export type AcceptOutcome = { kind: 'accepted'; user: UserRow; member: MemberRow } | { kind: 'gone' | 'used' | 'expired' | 'already_member' };

/**
 * Accepts an invite in one transaction: re-checks it under a row lock (a concurrent accept or resend
 * loses), creates the login and its membership in the inviting organisation, and marks it accepted.
 */
export async function acceptInvite(
  db: Db,
  invite: Pick<InviteRow, 'id' | 'operator_id' | 'token_hash'>,
  login: { passwordHash: string; firstName: string; lastName: string; now: Date },
): Promise<AcceptOutcome> {
  try {
    return await db.transaction(async (trx): Promise<AcceptOutcome> => {
      const row = await trx<InviteRow>('invites').where({ operator_id: invite.operator_id, id: invite.id, token_hash: invite.token_hash }).forUpdate().first();
      const state = row ? inviteState(row, login.now) : 'revoked';
      if (!row || state === 'revoked') return { kind: 'gone' };
      if (state === 'accepted') return { kind: 'used' };
      if (state === 'expired') return { kind: 'expired' };
      const [user] = await trx<UserRow>('users')
        .insert({ email: row.email, password_hash: login.passwordHash, first_name: login.firstName, last_name: login.lastName })
        .returning('*');
      const [member] = await trx<MemberRow>('members')
        .insert({
          operator_id: row.operator_id,
          user_id: user!.id,
          role: row.role,
          status: 'active',
          display_name: `${login.firstName} ${login.lastName}`,
        })
        .returning('*');
      await trx('invites').where({ operator_id: row.operator_id, id: row.id }).update({ status: 'accepted', accepted_at: login.now, updated_at: trx.fn.now() });
      return { kind: 'accepted', user: user!, member: member! };
    });
  } catch (error) {
    if ((error as { constraint?: string }).constraint === 'users_email_lower_unique') return { kind: 'already_member' };
    throw error;
  }
}
