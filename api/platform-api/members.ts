import type { Context } from 'koa';
import { changeMember, revokeMemberAccess } from '../../commands/team/members';
import { listTeamMembers } from '../../db/queries/team';
import type { AppDeps } from '../deps';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { sessionOf } from './errors';
import { memberRecord } from './presenters';
import { type IdParams, type PatchMemberBody } from './schema';

export async function listMembers(deps: AppDeps, ctx: Context): Promise<void> {
  const caller = sessionOf(ctx);
  const members = (await listTeamMembers(deps.db, operatorOf(ctx))).map((row) => memberRecord(row, caller.memberId));
  ctx.body = { success: true, data: { members, count: members.length } };
}

/** PATCH: role change and/or reinstatement (spec 3.2); the status is untouched by a role change. */
export async function patchMember(
  deps: AppDeps,
  ctx: Context,
  { params, body }: InputOf<{ params: typeof IdParams; body: typeof PatchMemberBody }>,
): Promise<void> {
  const row = await changeMember(deps, { operatorId: operatorOf(ctx), caller: sessionOf(ctx), memberId: params.id, role: body.role, status: body.status });
  deps.caches.members.clear();
  ctx.body = { success: true, data: { id: row.id, role: row.role, status: row.status } };
}

/** DELETE: revoke (suspend) — signed out at once, blocked from signing in; their API keys keep working (spec 5 rule 8). */
export async function revokeMember(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  const row = await revokeMemberAccess(deps, { operatorId: operatorOf(ctx), caller: sessionOf(ctx), memberId: params.id });
  deps.caches.members.clear();
  ctx.body = { success: true, data: { id: row.id, status: row.status } };
}
