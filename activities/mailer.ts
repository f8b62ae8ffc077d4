import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../core/config';

import type { EmailDelivery as Delivery, EmailMessage } from '../core/workflowContracts';

export type { Delivery, EmailMessage };

export interface Mailer {
  send(message: EmailMessage): Promise<Delivery>;
}

/** The part after `@`: what the log may say about a recipient. */
export function recipientDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * A permanent SMTP refusal (5xx) fails the activity for good; anything else (connection, timeout, 4xx)
 * is a plain Error that Temporal retries. Neither message repeats the server's text, which can name the
 * recipient, so Temporal's history holds no address.
 */
function deliveryFailure(error: unknown): Error {
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  const label = [typeof code === 'string' ? code : 'SMTP_ERROR', typeof responseCode === 'number' ? responseCode : ''].join(' ').trim();
  if (typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600) {
    return ApplicationFailure.create({ nonRetryable: true, type: 'EMAIL_REJECTED', message: `SMTP server refused the message (${label})` });
  }
  return new Error(`SMTP delivery failed (${label})`);
}

function fileContent(from: string, message: EmailMessage): string {
  return [`From: ${from}`, `To: ${message.to}`, `Subject: ${message.subject}`, `Date: ${new Date().toUTCString()}`, '', message.text].join('\n');
}

/**
 * Sends through `SMTP_URL` with nodemailer; without it, writes a readable text file per message into
 * `DATA_DIR/mail/` (mode 0600) so a developer can open the link. Logs carry the recipient's domain and
 * the file name only, never the address or the body (which holds invite tokens).
 */
export function createMailer({ config, logger }: { config: Config; logger: Logger }): Mailer {
  const smtp = config.SMTP_URL
    ? nodemailer.createTransport({ url: config.SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 })
    : undefined;
  const mailDir = path.resolve(config.DATA_DIR, 'mail');

  return {
    async send(message) {
      if (!smtp) {
        await mkdir(mailDir, { recursive: true, mode: 0o700 });
        const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.txt`;
        await writeFile(path.join(mailDir, file), fileContent(config.SMTP_FROM, message), { mode: 0o600 });
        logger.info(
          { recipientDomain: recipientDomain(message.to), mailFile: path.join(mailDir, file) },
          'SMTP_URL is not set: email written to the mail folder',
        );
        return { delivery: 'file', file };
      }
      try {
        const info = await smtp.sendMail({ from: config.SMTP_FROM, to: message.to, subject: message.subject, text: message.text });
        logger.info({ recipientDomain: recipientDomain(message.to), messageId: info.messageId }, 'email sent');
        return { delivery: 'smtp', messageId: info.messageId };
      } catch (error) {
        const failure = deliveryFailure(error);
        logger.warn({ recipientDomain: recipientDomain(message.to), reason: failure.message }, 'email delivery failed');
        throw failure;
      }
    },
  };
}
