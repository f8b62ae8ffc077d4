import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import type { TestApp } from './app';
import { http } from './http';

export const teamUrl = (app: TestApp, path: string) => `${app.url}/platform-api${path}`;

export const freshEmail = (tag = 'invitee') => `${tag}-${randomUUID()}@example.test`;

export interface CreatedInvite {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
  acceptUrl: string;
  token: string;
}

/** Invites through the real endpoint; fails the test unless it answers 201. */
export async function inviteMember(app: TestApp, accessToken: string, role: 'admin' | 'member' = 'member', email = freshEmail()): Promise<CreatedInvite> {
  const response = await http(teamUrl(app, '/operators/me/invites'), { token: accessToken, body: { email, role } });
  if (response.status !== 201) throw new Error(`invite failed: ${response.status} ${response.text}`);
  return response.body.data as CreatedInvite;
}

/** Accepts through the real public endpoint and returns the raw response. */
export function acceptInvite(app: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  return http(teamUrl(app, '/invites/accept'), { body: { token, password: 'invitee-password-1', first_name: 'Ada', last_name: 'Lovelace', ...overrides } });
}

/** "Seven days later": the invite's window moved into the past (the clock the server reads is the real one). */
export async function expireInvite(db: Db, inviteId: string): Promise<void> {
  await db('invites')
    .where({ id: inviteId })
    .update({ expires_at: db.raw("now() - interval '1 second'") });
}

/** The Owner's member id (signup returns the user, not the membership). */
export async function ownerMemberId(db: Db, operatorId: string): Promise<string> {
  const row = await db('members').where({ operator_id: operatorId, role: 'owner' }).first('id');
  return row.id as string;
}
