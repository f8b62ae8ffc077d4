import type { Knex } from 'knex';
import type { Context } from 'koa';
import { isUuid } from '../../core/ids';
import { refuseMemberAction, type MemberAction } from '../../core/teamRules';
import type { MemberRow } from '../../db/queries/identity';
import { listTeamMembers, lockMember, suspendMember, updateMember } from '../../db/queries/team';
import type { AppDeps } from '../deps';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { memberNotFound, refused, sessionOf } from './errors';
import { memberRecord } from './presenters';
import { type IdParams, type PatchMemberBody } from './schema';

export async function listMembers(deps: AppDeps, ctx: Context): Promise<void> {
  const caller = sessionOf(ctx);
  const members = (await listTeamMembers(deps.db, operatorOf(ctx))).map((row) => memberRecord(row, caller.memberId));
  ctx.body = { success: true, data: { members, count: members.length } };
}

/**
 * Checks the role rules against the target as locked in the transaction, then applies `change`; an
 * unknown, malformed or other operator's id is 404 before any rule is told apart.
 */
async function actOnMember(
  deps: AppDeps,
  ctx: Context,
  id: string,
  action: MemberAction,
  change: (trx: Knex.Transaction, target: MemberRow) => Promise<MemberRow>,
): Promise<MemberRow> {
  const caller = sessionOf(ctx);
  if (!isUuid(id)) throw memberNotFound();
  const changed = await deps.db.transaction(async (trx) => {
    const target = await lockMember(trx, operatorOf(ctx), id);
    if (!target) throw memberNotFound();
    const refusal = refuseMemberAction({ memberId: caller.memberId, role: caller.role }, target, action);
    if (refusal) throw refused(refusal);
    return change(trx, target);
  });
  deps.caches.members.clear();
  return changed;
}

/** PATCH: role change and/or reinstatement (spec 3.2); the status is untouched by a role change. */
export async function patchMember(
  deps: AppDeps,
  ctx: Context,
  { params, body }: InputOf<{ params: typeof IdParams; body: typeof PatchMemberBody }>,
): Promise<void> {
  const row = await actOnMember(deps, ctx, params.id, { kind: 'update', role: body.role }, (trx, target) =>
    updateMember(trx, target.operator_id, target.id, {
      ...(body.role !== undefined ? { role: body.role } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
    }),
  );
  ctx.body = { success: true, data: { id: row.id, role: row.role, status: row.status } };
}

/** DELETE: revoke (suspend) — signed out at once, blocked from signing in; their API keys keep working (spec 5 rule 8). */
export async function revokeMember(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  const row = await actOnMember(deps, ctx, params.id, { kind: 'suspend' }, (trx, target) => suspendMember(trx, target.operator_id, target.id));
  ctx.body = { success: true, data: { id: row.id, status: row.status } };
}
