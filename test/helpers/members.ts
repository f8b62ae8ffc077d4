import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../core/password';
import type { Db } from '../../db/knex';
import type { MemberRole } from '../../db/queries/identity';
import { http } from './http';

/**
 * Adds a member with a role straight in the database (team invites are their own area) and signs in
 * through the real token endpoint.
 */
export async function addMemberAndSignIn(db: Db, baseUrl: string, operatorId: string, role: MemberRole) {
  const email = `${role}-${randomUUID()}@example.test`;
  const password = 'member-password-1';
  const [user] = await db('users')
    .insert({ email, password_hash: await hashPassword(password) })
    .returning(['id']);
  const [member] = await db('members').insert({ operator_id: operatorId, user_id: user.id, role, status: 'active' }).returning(['id']);
  const token = await http(`${baseUrl}/auth/v1/token?grant_type=password`, { body: { email, password } });
  if (token.status !== 200) throw new Error(`sign-in failed: ${token.text}`);
  return { userId: user.id as string, memberId: member.id as string, email, password, accessToken: token.body.access_token as string };
}
