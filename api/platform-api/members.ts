import { changeMember, revokeMemberAccess } from '../../commands/team/members';
import { listTeamMembers } from '../../db/queries/team';
import { memberRecord } from './presenters';
import { IdParams, PatchMemberBody } from './schema';
import { team } from './area';

export const listMembers = team.handler({}, async ({ deps, ctx, principal }) => {
  const caller = principal;
  const members = (await listTeamMembers(deps.db, principal.operatorId)).map((row) => memberRecord(row, caller.memberId));
  ctx.body = { success: true, data: { members, count: members.length } };
});

/** PATCH: role change and/or reinstatement (spec 3.2); the status is untouched by a role change. */
export const patchMember = team.handler({ input: { params: IdParams, body: PatchMemberBody } }, async ({ deps, ctx, input: { params, body }, principal }) => {
  const row = await changeMember(deps, { operatorId: principal.operatorId, caller: principal, memberId: params.id, role: body.role, status: body.status });
  deps.caches.members.clear();
  ctx.body = { success: true, data: { id: row.id, role: row.role, status: row.status } };
});

/** DELETE: revoke (suspend) — signed out at once, blocked from signing in; their API keys keep working (spec 5 rule 8). */
export const revokeMember = team.handler({ input: { params: IdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await revokeMemberAccess(deps, { operatorId: principal.operatorId, caller: principal, memberId: params.id });
  deps.caches.members.clear();
  ctx.body = { success: true, data: { id: row.id, status: row.status } };
});
