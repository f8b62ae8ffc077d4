import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from 'pino';
import { constantTimeEqual, sha256Hex } from '../core/apiKeyToken';
import type { Config } from '../core/config';
import type { Keyring } from '../core/crypto';
import { acceptUrlFor, inviteEmailMessage, inviteTokenContext } from '../core/invites';
import type { Db } from '../db/knex';
import { findInviteWithOrganisation } from '../db/queries/invites';
import { createMailer, type Delivery, type EmailMessage } from './mailer';

import type { InviteEmailInput, InviteEmailResult } from '../core/workflowContracts';
import { BOOKKEEPING, PAUSES, type ActivityDeclarations } from './declarations';

export type { EmailMessage } from './mailer';

export function createEmailActivities({ db, config, logger, keyring }: { db: Db; config: Config; logger: Logger; keyring: Keyring }) {
  const mailer = createMailer({ config, logger });
  return {
    /** Sends one plain-text email (SMTP, or the mail folder without `SMTP_URL`). */
    async sendEmail(message: EmailMessage): Promise<Delivery> {
      return mailer.send(message);
    },

    /**
     * Sends an invite's email. The raw token is opened here, inside the worker, so Temporal's history
     * holds only ciphertext. An invite resent or revoked since the workflow started is skipped: its
     * link would no longer work.
     */
    async sendInviteEmail(input: InviteEmailInput): Promise<InviteEmailResult> {
      let token: string;
      try {
        token = keyring.decrypt(input.sealedToken, inviteTokenContext(input.operatorId, input.inviteId));
      } catch {
        throw ApplicationFailure.create({
          nonRetryable: true,
          type: 'TOKEN_UNREADABLE',
          message: 'The sealed invite token cannot be opened with this keyring',
        });
      }
      const invite = await findInviteWithOrganisation(db, input.operatorId, input.inviteId);
      if (!invite || invite.status !== 'pending') return { delivery: 'skipped', reason: 'invite_no_longer_pending' };
      if (!constantTimeEqual(invite.token_hash, sha256Hex(token))) return { delivery: 'skipped', reason: 'token_superseded' };
      const message = inviteEmailMessage({
        orgName: invite.org_name,
        role: invite.role,
        acceptUrl: acceptUrlFor(input.appUrl, token),
        expiresAt: invite.expires_at,
      });
      return mailer.send({ to: invite.email, ...message });
    },
  };
}

/** How each of these activities meets the budget of large data (declarations.ts). */
export const EMAIL_ACTIVITIES = {
  sendEmail: PAUSES,
  sendInviteEmail: BOOKKEEPING,
} satisfies ActivityDeclarations<typeof createEmailActivities>;
