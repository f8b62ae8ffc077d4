import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { EmailDelivery, EmailMessage, InviteEmailInput, InviteEmailResult } from '../core/workflowContracts';

/** SMTP outages are retried with backoff for several minutes; a 5xx refusal (EMAIL_REJECTED) is final. */
const { sendEmail, sendInviteEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** Sends one email with retries; for callers whose message holds no secret. */
export async function sendEmailWorkflow(message: EmailMessage): Promise<EmailDelivery> {
  return sendEmail(message);
}

/** Sends an invite's email; the input carries the invite token sealed, so the history never shows it. */
export async function sendInviteEmailWorkflow(input: InviteEmailInput): Promise<InviteEmailResult> {
  return sendInviteEmail(input);
}
