import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { createEmailActivities } from '../../activities/email';
import { loadConfig } from '../../core/config';
import { inviteTokenContext } from '../../core/invites';
import { createLogger } from '../../core/logger';
import { freePort } from '../../devstack/freePort';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { freshEmail, inviteMember, teamUrl } from '../helpers/team';

let app: TestApp;
let acme: TestOperator;
let smtp: TestSmtpServer;
let mailDir: string;
const logLines: string[] = [];

beforeAll(async () => {
  [app, smtp] = await Promise.all([startTestApp(), startSmtpServer()]);
  acme = await signupOperator(app.url, 'Acme Casino');
  mailDir = mkdtempSync(path.join(os.tmpdir(), 'team-mail-'));
});
afterAll(async () => {
  await Promise.all([app.close(), smtp.close()]);
  rmSync(mailDir, { recursive: true, force: true });
});

/** The real activities with the API's database and keyring, and a config of the test's choosing. */
function activities(env: Record<string, string>) {
  const logger = createLogger('info', {}, { write: (line: string) => void logLines.push(line) });
  return createEmailActivities({ db: app.deps.db, config: loadConfig(env), logger, keyring: app.deps.keyring });
}

const sealed = (operatorId: string, inviteId: string, token: string) => app.deps.keyring.encrypt(token, inviteTokenContext(operatorId, inviteId));

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the activity to fail');
}

describe('sendInviteEmail', () => {
  it('skips an invite whose token was replaced by a resend', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    await http(teamUrl(app, `/operators/me/invites/${invite.id}/resend`), { method: 'POST', token: acme.accessToken });
    const result = await activities({ SMTP_URL: smtp.url }).sendInviteEmail({
      operatorId: acme.operatorId,
      inviteId: invite.id,
      sealedToken: sealed(acme.operatorId, invite.id, invite.token),
      appUrl: 'https://app.example.test',
    });
    expect(result).toEqual({ delivery: 'skipped', reason: 'token_superseded' });
    expect(smtp.received.some((mail) => mail.to.includes(invite.email))).toBe(false);
  });

  it('fails for good (TOKEN_UNREADABLE) when the ciphertext was sealed for another invite', async () => {
    const [first, second] = [await inviteMember(app, acme.accessToken), await inviteMember(app, acme.accessToken)];
    const error = await failureOf(
      activities({ SMTP_URL: smtp.url }).sendInviteEmail({
        operatorId: acme.operatorId,
        inviteId: second.id,
        sealedToken: sealed(acme.operatorId, first.id, first.token),
        appUrl: 'https://app.example.test',
      }),
    );
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'TOKEN_UNREADABLE', nonRetryable: true });
  });
});

describe('sendEmail failures (Temporal retries what is transient)', () => {
  it('a 5xx refusal is a non-retryable EMAIL_REJECTED that does not repeat the address', async () => {
    const to = freshEmail('reject-me');
    const error = await failureOf(activities({ SMTP_URL: smtp.url }).sendEmail({ to, subject: 's', text: 't' }));
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'EMAIL_REJECTED', nonRetryable: true });
    expect(error.message).not.toContain(to);
  });

  it('a 4xx refusal and a refused connection are plain (retryable) errors', async () => {
    const later = await failureOf(activities({ SMTP_URL: smtp.url }).sendEmail({ to: freshEmail('later-please'), subject: 's', text: 't' }));
    expect(later).not.toBeInstanceOf(ApplicationFailure);
    expect(later.message).toMatch(/^SMTP delivery failed \(\w+ 451\)$/);
    const closed = await failureOf(activities({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }).sendEmail({ to: freshEmail(), subject: 's', text: 't' }));
    expect(closed).not.toBeInstanceOf(ApplicationFailure);
    expect(closed.message).toMatch(/^SMTP delivery failed/);
  });
});

describe('without SMTP_URL', () => {
  it('writes the mail file (mode 0600) and logs only the recipient domain and the file', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    logLines.length = 0;
    const result = await activities({ SMTP_URL: '', DATA_DIR: mailDir }).sendInviteEmail({
      operatorId: acme.operatorId,
      inviteId: invite.id,
      sealedToken: sealed(acme.operatorId, invite.id, invite.token),
      appUrl: 'https://app.example.test',
    });
    expect(result).toEqual({ delivery: 'file', file: expect.any(String) });
    const file = path.join(mailDir, 'mail', (result as { file: string }).file);
    expect(readFileSync(file, 'utf8')).toContain(`https://app.example.test/accept-invite?token=${invite.token}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const log = logLines.join('\n');
    expect(JSON.parse(logLines[0]!)).toMatchObject({ recipientDomain: 'example.test', mailFile: file });
    expect(log).not.toContain(invite.token);
    expect(log).not.toContain(invite.email);
  });
});
