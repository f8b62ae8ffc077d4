import type { Context } from 'koa';
import * as teamInvites from '../../commands/team/invites';
import { acceptUrlFor, inviteTokenContext } from '../../core/invites';
import { listPendingInvites, type InviteRow } from '../../db/queries/invites';
import { startInviteEmail } from '../../temporal/emails';
import type { AppDeps } from '../deps';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { sessionOf } from './errors';
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

export async function listInvites(deps: AppDeps, ctx: Context): Promise<void> {
  const now = new Date();
  const invites = (await listPendingInvites(deps.db, operatorOf(ctx))).map((row) => inviteRecord(row, now));
  ctx.body = { success: true, data: { invites, count: invites.length } };
}

/** `POST /operators/me/invites`, then the email. Throttled per user and per organisation by the route's guards. */
export async function createInviteHandler(deps: AppDeps, ctx: Context, { body }: InputOf<{ body: typeof CreateInviteBody }>): Promise<void> {
  const { invite, token } = await teamInvites.createInvite(deps, { operatorId: operatorOf(ctx), caller: sessionOf(ctx), email: body.email, role: body.role });
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

/** Resend: a new token and a fresh 7-day window, then a new email. */
export async function resendInvite(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  const { invite, token } = await teamInvites.resendInvite(deps, { operatorId: operatorOf(ctx), caller: sessionOf(ctx), inviteId: params.id });
  await emailInvite(deps, ctx, invite, token);
  ctx.body = { success: true, data: { id: invite.id, expiresAt: invite.expires_at.toISOString(), acceptUrl: acceptUrlFor(deps.config.appUrl, token), token } };
}

export async function revokeInviteHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof IdParams }>): Promise<void> {
  const invite = await teamInvites.revokeInvite(deps, { operatorId: operatorOf(ctx), caller: sessionOf(ctx), inviteId: params.id });
  ctx.body = { success: true, data: { id: invite.id, status: invite.status } };
}
