import type { Knex } from 'knex';
import type { Db } from '../knex';
import type { MemberRole, MemberRow, MemberStatus } from './identity';

export interface TeamMemberRow {
  id: string;
  user_id: string;
  email: string;
  display_name: string;
  role: MemberRole;
  status: MemberStatus;
  created_at: Date;
}

/** The organisation's members with their login email, oldest first (the Owner comes first). */
export async function listTeamMembers(db: Db, operatorId: string): Promise<TeamMemberRow[]> {
  return db('members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.operator_id', operatorId)
    .orderBy([
      { column: 'm.created_at', order: 'asc' },
      { column: 'm.id', order: 'asc' },
    ])
    .select<TeamMemberRow[]>('m.id', 'm.user_id', 'u.email', 'm.display_name', 'm.role', 'm.status', 'm.created_at');
}

/** Locks a member row for the rest of the transaction, so a role check and its update see the same row. */
export async function lockMember(trx: Knex.Transaction, operatorId: string, memberId: string): Promise<MemberRow | undefined> {
  return trx<MemberRow>('members').where({ operator_id: operatorId, id: memberId }).forUpdate().first();
}

/** Changes the role and/or reinstates; reinstating keeps the session version, so pre-suspension tokens stay dead. */
export async function updateMember(
  trx: Knex.Transaction,
  operatorId: string,
  memberId: string,
  change: { role?: 'admin' | 'member'; status?: 'active' },
): Promise<MemberRow> {
  const [row] = await trx('members')
    .where({ operator_id: operatorId, id: memberId })
    .update({ ...change, updated_at: trx.fn.now() })
    .returning<MemberRow[]>('*');
  if (!row) throw new Error('member vanished inside its own transaction');
  return row;
}

/** Suspends and bumps the session version in one statement: every token issued before now stops working. */
export async function suspendMember(trx: Knex.Transaction, operatorId: string, memberId: string): Promise<MemberRow> {
  const [row] = await trx('members')
    .where({ operator_id: operatorId, id: memberId })
    .update({ status: 'suspended', session_version: trx.raw('session_version + 1'), updated_at: trx.fn.now() })
    .returning<MemberRow[]>('*');
  if (!row) throw new Error('member vanished inside its own transaction');
  return row;
}

/**
 * Whether an email already has a login anywhere. Not scoped by operator on purpose: a login belongs to
 * exactly one organisation and emails are unique across all of them, so accepting an invite needs a free email.
 * Only the invite's own holder may learn the answer (accept); an inviter asks `emailIsMember`.
 */
export async function emailHasAccount(db: Db | Knex.Transaction, email: string): Promise<boolean> {
  const row = await db('users').whereRaw('lower(email) = lower(?)', [email]).first('id');
  return row !== undefined;
}

/**
 * Whether an email already belongs to a member (active or suspended) of this organisation: what an invite answers
 * `ALREADY_MEMBER` for (spec 3.3 "email has no account", read within the inviting organisation), so an inviter
 * never learns of accounts in other organisations.
 */
export async function emailIsMember(db: Db | Knex.Transaction, operatorId: string, email: string): Promise<boolean> {
  const row = await db('members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.operator_id', operatorId)
    .whereRaw('lower(u.email) = lower(?)', [email])
    .first('m.id');
  return row !== undefined;
}
