import type { Context } from 'koa';
import * as teamInvites from '../../commands/team/invites';
import { acceptUrlFor, inviteTokenContext } from '../../core/invites';
import { listPendingInvites, type InviteRow } from '../../db/queries/invites';
import { startInviteEmail } from '../../temporal/emails';
import type { AppDeps } from '../deps';
import { inviteRecord } from './presenters';
import { CreateInviteBody, IdParams } from './schema';
import { team } from './area';

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

export const listInvites = team.handler({}, async ({ deps, ctx, principal }) => {
  const now = new Date();
  const invites = (await listPendingInvites(deps.db, principal.operatorId)).map((row) => inviteRecord(row, now));
  ctx.body = { success: true, data: { invites, count: invites.length } };
});

/** `POST /operators/me/invites`, then the email. Throttled per user and per organisation by the route's guards. */
export const createInviteHandler = team.handler({ input: { body: CreateInviteBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  const { invite, token } = await teamInvites.createInvite(deps, { operatorId: principal.operatorId, caller: principal, email: body.email, role: body.role });
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
});

/** Resend: a new token and a fresh 7-day window, then a new email. */
export const resendInvite = team.handler({ input: { params: IdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const { invite, token } = await teamInvites.resendInvite(deps, { operatorId: principal.operatorId, caller: principal, inviteId: params.id });
  await emailInvite(deps, ctx, invite, token);
  ctx.body = { success: true, data: { id: invite.id, expiresAt: invite.expires_at.toISOString(), acceptUrl: acceptUrlFor(deps.config.appUrl, token), token } };
});

export const revokeInviteHandler = team.handler({ input: { params: IdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const invite = await teamInvites.revokeInvite(deps, { operatorId: principal.operatorId, caller: principal, inviteId: params.id });
  ctx.body = { success: true, data: { id: invite.id, status: invite.status } };
});
