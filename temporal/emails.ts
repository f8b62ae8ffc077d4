import type { Client } from '@temporalio/client';
import type { InviteEmailInput } from '../core/workflowContracts';
import { sendInviteEmailWorkflow } from '../workflows/sendEmail';

/**
 * Starts an invite's email without waiting. The workflow id names the invite and its token (by hash
 * prefix), so a resend with a new token sends again while a repeated start of the same one does not.
 *
 * @example await startInviteEmail(temporal, { operatorId, inviteId, sealedToken, appUrl }, invite.token_hash)
 */
export async function startInviteEmail(temporal: { client: Client; taskQueue: string }, input: InviteEmailInput, tokenHash: string): Promise<void> {
  await temporal.client.workflow.start(sendInviteEmailWorkflow, {
    taskQueue: temporal.taskQueue,
    workflowId: `invite-email-${input.inviteId}-${tokenHash.slice(0, 16)}`,
    args: [input],
  });
}
