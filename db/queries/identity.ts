import type { Knex } from 'knex';
import type { Db } from '../knex';

export type MemberRole = 'owner' | 'admin' | 'member';
export type MemberStatus = 'active' | 'suspended';

export interface OperatorRow {
  id: string;
  name: string;
  created_at: Date;
}

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
}

export interface MemberRow {
  id: string;
  operator_id: string;
  user_id: string;
  role: MemberRole;
  status: MemberStatus;
  display_name: string;
  session_version: number;
}

export interface NewOrganisation {
  organisationName: string;
  email: string;
  passwordHash: string;
  displayName: string;
}

export class EmailTakenError extends Error {
  constructor() {
    super('email already has an account');
  }
}

/** Creates an operator with its Owner in one transaction; a taken email (any case) is an `EmailTakenError`. */
export async function createOrganisation(db: Db, input: NewOrganisation): Promise<{ operator: OperatorRow; user: UserRow; member: MemberRow }> {
  try {
    return await db.transaction(async (trx) => {
      const [operator] = await trx<OperatorRow>('operators').insert({ name: input.organisationName }).returning(['id', 'name', 'created_at']);
      const [user] = await trx<UserRow>('users').insert({ email: input.email, password_hash: input.passwordHash }).returning('*');
      const [member] = await trx<MemberRow>('members')
        .insert({ operator_id: operator!.id, user_id: user!.id, role: 'owner', status: 'active', display_name: input.displayName })
        .returning('*');
      return { operator: operator!, user: user!, member: member! };
    });
  } catch (error) {
    if ((error as { constraint?: string }).constraint === 'users_email_lower_unique') throw new EmailTakenError();
    throw error;
  }
}

/** Identity resolution at sign-in: the one lookup that cannot be scoped by operator, because it finds the operator. */
export async function findLoginByEmail(db: Db, email: string): Promise<{ user: UserRow; member: MemberRow } | undefined> {
  const row = await db('users as u')
    .join('members as m', 'm.user_id', 'u.id')
    .whereRaw('lower(u.email) = lower(?)', [email])
    .first<UserRow & { member_id: string; operator_id: string; role: MemberRole; status: MemberStatus; display_name: string; session_version: number }>(
      'u.id',
      'u.email',
      'u.password_hash',
      'u.first_name',
      'u.last_name',
      'm.id as member_id',
      'm.operator_id',
      'm.role',
      'm.status',
      'm.display_name',
      'm.session_version',
    );
  if (!row) return undefined;
  return {
    user: { id: row.id, email: row.email, password_hash: row.password_hash, first_name: row.first_name, last_name: row.last_name },
    member: {
      id: row.member_id,
      operator_id: row.operator_id,
      user_id: row.id,
      role: row.role,
      status: row.status,
      display_name: row.display_name,
      session_version: row.session_version,
    },
  };
}

export async function findMember(db: Db | Knex.Transaction, operatorId: string, memberId: string): Promise<MemberRow | undefined> {
  return db<MemberRow>('members').where({ operator_id: operatorId, id: memberId }).first();
}

export async function findUser(db: Db, operatorId: string, userId: string): Promise<UserRow | undefined> {
  return db<UserRow>('users as u').join('members as m', 'm.user_id', 'u.id').where({ 'm.operator_id': operatorId, 'u.id': userId }).first('u.*');
}

export async function findOperator(db: Db, operatorId: string): Promise<OperatorRow | undefined> {
  return db<OperatorRow>('operators').where({ id: operatorId }).first('id', 'name', 'created_at');
}

export interface ProfileRow {
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  user_created_at: Date;
  user_updated_at: Date;
  member_id: string;
  role: MemberRole;
  display_name: string;
  operator_id: string;
  operator_name: string;
}

/** The signed-in member as `GET /auth/v1/user` describes them: login, membership and organisation in one read. */
export async function findProfile(db: Db, operatorId: string, memberId: string): Promise<ProfileRow | undefined> {
  return db('members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .join('operators as o', 'o.id', 'm.operator_id')
    .where({ 'm.operator_id': operatorId, 'm.id': memberId })
    .first<ProfileRow>(
      'u.id as user_id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.created_at as user_created_at',
      'u.updated_at as user_updated_at',
      'm.id as member_id',
      'm.role',
      'm.display_name',
      'o.id as operator_id',
      'o.name as operator_name',
    );
}

/**
 * Ends every session of a member at once: bumping the session version invalidates all their access
 * and refresh tokens, the way suspension does, without suspending them.
 */
export async function bumpSessionVersion(db: Db, operatorId: string, memberId: string): Promise<void> {
  await db('members').where({ operator_id: operatorId, id: memberId }).increment('session_version', 1);
}
