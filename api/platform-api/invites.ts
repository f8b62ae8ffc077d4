import type { Context } from 'koa';
import { sha256Hex } from '../../core/apiKeyToken';
import { isUuid, secretToken } from '../../core/ids';
import { acceptUrlFor, inviteExpiresAt, inviteTokenContext } from '../../core/invites';
import { refuseInviteAction } from '../../core/teamRules';
import { createInvite, findPendingInvite, listPendingInvites, reissueInvite, revokeInvite, type InviteRow } from '../../db/queries/invites';
import { emailIsMember } from '../../db/queries/team';
import { startInviteEmail } from '../../temporal/emails';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { alreadyInOrganisation, inviteNotFound, refused, sessionOf } from './errors';
import { inviteRecord } from './presenters';
import { type CreateInviteBody, type IdParams } from './schema';

/**
 * Starts the email workflow without waiting for it. The token travels sealed with the keyring, so
 * Temporal's history never holds a usable link. A failed start is logged, not fatal: the invite exists,
 * its link is in the response, and a resend tries again.
 */
async function emailInvite(deps: AppDeps, ctx: Context, invite: InviteRow, token: string): Promise<void> {
  try {
    const sealedToken = deps.keyring.encrypt(token, inviteTokenContext(invite.operator_id, invite.id));
    await startInviteEmail(deps.temporal, { operatorId: invite.operator_id, inviteId: invite.id, sealedToken, appUrl: deps.config.appUrl }, invite.token_hash);
  } catch (error) {
    ctx.state.log.error(
      { inviteId: invite.id, err: { name: (error as Error).name, message: (error as Error).message } },
      'invite email workflow did not start',
    );
  }
}

/** A pending invite of the caller's organisation that the caller's role may act on; 404 for anything else. */
async function pendingInviteFor(deps: AppDeps, ctx: Context, id: string): Promise<InviteRow> {
  const caller = sessionOf(ctx);
  const invite = isUuid(id) ? await findPendingInvite(deps.db, operatorOf(ctx), id) : undefined;
  if (!invite) throw inviteNotFound();
  const refusal = refuseInviteAction(caller.role, invite.role);
  if (refusal) throw refused(refusal);
  return invite;
}

export async function listInvites(deps: AppDeps, ctx: Context): Promise<void> {
  const now = new Date();
  const invites = (await listPendingInvites(deps.db, operatorOf(ctx))).map((row) => inviteRecord(row, now));
  ctx.body = { success: true, data: { invites, count: invites.length } };
}

/**
 * `POST /operators/me/invites`: `ALREADY_MEMBER` only for an email of this organisation's members; an address with
 * an account elsewhere is invited like any other (its holder learns at accept), so the answer reveals nothing
 * about other organisations. Throttled per user and per organisation by the route's guards.
 */
export async function createInviteHandler(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof CreateInviteBody }>): Promise<void> {
  const caller = sessionOf(ctx);
  const refusal = refuseInviteAction(caller.role, body.role);
  if (refusal) throw refused(refusal);
  if (await emailIsMember(deps.db, operatorOf(ctx), body.email)) throw alreadyInOrganisation();
  const token = secretToken('inv');
  const invite = await createInvite(
    deps.db,
    operatorOf(ctx),
    { email: body.email, role: body.role, tokenHash: sha256Hex(token), expiresAt: inviteExpiresAt(new Date()), invitedByMemberId: caller.memberId },
    (pending) => refuseInviteAction(caller.role, pending.role) === null,
  );
  if (invite === 'refused') throw new AppError(403, 'FORBIDDEN', 'Only the Owner can replace a pending admin invite');
  await emailInvite(deps, ctx, invite, token);
  ctx.status = 201;
  ctx.body = {
    success: true,
    data: {
      id: invite.id,
      email: invite.email,
      role: invite.role,
      expiresAt: invite.expires_at.toISOString(),
      acceptUrl: acceptUrlFor(deps.config.appUrl, token),
      token,
    },
  };
}

/** Resend: a new token (the old link stops working) and a fresh 7-day window, then a new email. */
export async function resendInvite(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  const current = await pendingInviteFor(deps, ctx, params.id);
  if (await emailIsMember(deps.db, current.operator_id, current.email)) throw alreadyInOrganisation();
  const token = secretToken('inv');
  const invite = await reissueInvite(deps.db, current.operator_id, current.id, { tokenHash: sha256Hex(token), expiresAt: inviteExpiresAt(new Date()) });
  if (!invite) throw inviteNotFound();
  await emailInvite(deps, ctx, invite, token);
  ctx.body = { success: true, data: { id: invite.id, expiresAt: invite.expires_at.toISOString(), acceptUrl: acceptUrlFor(deps.config.appUrl, token), token } };
}

export async function revokeInviteHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  const current = await pendingInviteFor(deps, ctx, params.id);
  const invite = await revokeInvite(deps.db, current.operator_id, current.id);
  if (!invite) throw inviteNotFound();
  ctx.body = { success: true, data: { id: invite.id, status: invite.status } };
}
