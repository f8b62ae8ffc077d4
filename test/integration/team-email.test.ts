import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Delivery } from '../../activities/mailer';
import { KeyringPayloadCodec } from '../../temporal/payloadCodec';
import type { sendEmailWorkflow } from '../../workflows';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { signupOperator, type TestOperator } from '../helpers/identity';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp';
import { freshEmail, inviteMember, teamUrl } from '../helpers/team';
import { decodedHistoryText, payloadsIn, rawHistory } from '../helpers/temporalHistory';
import { spawnWorker, type WorkerProcess } from '../helpers/worker';

const mailDir = () => path.resolve(process.env.DATA_DIR!, 'mail');
const workflowIdOf = (inviteId: string, token: string) => `invite-email-${inviteId}-${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;

/** Every payload of a workflow's history, opened with the platform's codec, to prove what the workflow carried. */
async function storedPayloads(app: TestApp, workflowId: string): Promise<string> {
  const { history } = await rawHistory(app, workflowId);
  expect(payloadsIn(history).length).toBeGreaterThanOrEqual(4);
  return decodedHistoryText(app, workflowId);
}

describe('invite email without SMTP_URL (the shared test worker): written to DATA_DIR/mail', () => {
  let app: TestApp;
  let acme: TestOperator;
  beforeAll(async () => {
    app = await startTestApp({ APP_URL: 'https://app.example.test' });
    acme = await signupOperator(app.url, 'Acme Casino');
  });
  afterAll(() => app.close());

  it('a Temporal workflow writes the email with the accept link; its history holds the token only sealed', async () => {
    const invite = await inviteMember(app, acme.accessToken, 'admin');
    const workflowId = workflowIdOf(invite.id, invite.token);
    const result = (await app.deps.temporal.client.workflow.getHandle(workflowId).result()) as Delivery;
    expect(result).toEqual({ delivery: 'file', file: expect.stringMatching(/\.txt$/) });
    const mail = readFileSync(path.join(mailDir(), (result as { file: string }).file), 'utf8');
    expect(mail).toContain(`To: ${invite.email}\n`);
    expect(mail).toContain("Subject: You're invited to join Acme Casino\n");
    expect(mail).toContain('as an admin');
    expect(mail).toContain(`\n${invite.acceptUrl}\n`);

    const stored = await storedPayloads(app, workflowId);
    expect(stored).toContain(invite.id);
    expect(stored).toContain('enc:v1:');
    expect(stored).not.toContain(invite.token);
    expect(stored).not.toContain(invite.token.slice(4));
  });

  it('a resend emails the new link; an email that runs after its invite was revoked is skipped', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    await app.deps.temporal.client.workflow.getHandle(workflowIdOf(invite.id, invite.token)).result();
    const resent = (await http(teamUrl(app, `/operators/me/invites/${invite.id}/resend`), { method: 'POST', token: acme.accessToken })).body.data;
    const result = (await app.deps.temporal.client.workflow.getHandle(workflowIdOf(invite.id, resent.token)).result()) as { file: string };
    expect(readFileSync(path.join(mailDir(), result.file), 'utf8')).toContain(resent.acceptUrl);

    const revoked = await inviteMember(app, acme.accessToken);
    const original = app.deps.temporal.client.workflow.getHandle(workflowIdOf(revoked.id, revoked.token));
    await original.result();
    await http(teamUrl(app, `/operators/me/invites/${revoked.id}`), { method: 'DELETE', token: acme.accessToken });
    const history = await original.fetchHistory();
    const sealed = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    const [input] = await new KeyringPayloadCodec(app.deps.keyring, app.deps.config.TEMPORAL_NAMESPACE).decode([sealed!]);
    const skipped = await app.deps.temporal.client.workflow.execute('sendInviteEmailWorkflow', {
      taskQueue: app.deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: `invite-email-retry-${randomUUID()}`,
      args: [defaultPayloadConverter.fromPayload(input!)],
    });
    expect(skipped).toEqual({ delivery: 'skipped', reason: 'invite_no_longer_pending' });
  });

  it('sendEmailWorkflow sends any plain message', async () => {
    const to = freshEmail('plain');
    const result = await app.deps.temporal.client.workflow.execute<typeof sendEmailWorkflow>('sendEmailWorkflow', {
      taskQueue: app.deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: `email-${randomUUID()}`,
      args: [{ to, subject: 'Hello', text: 'Plain body' }],
    });
    expect(result.delivery).toBe('file');
    const mail = readFileSync(path.join(mailDir(), (result as { file: string }).file), 'utf8');
    expect(mail).toMatch(new RegExp(`^From: Operator Platform <no-reply@localhost>\nTo: ${to}\nSubject: Hello\nDate: .+\n\nPlain body$`));
  });
});

describe('invite email through SMTP_URL (a worker of its own and a real SMTP server on loopback)', () => {
  const taskQueue = `team-smtp-${randomUUID()}`;
  let smtp: TestSmtpServer;
  let worker: WorkerProcess | undefined;
  let app: TestApp;
  let acme: TestOperator;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    worker = await spawnWorker({ TEMPORAL_TASK_QUEUE: taskQueue, SMTP_URL: smtp.url });
    app = await startTestApp({ TEMPORAL_TASK_QUEUE: taskQueue, APP_URL: 'https://app.example.test' });
    acme = await signupOperator(app.url, 'Acme Casino');
  });

  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await smtp?.close();
  });

  it('delivers the invite with the accept link; a resend delivers the new link', async () => {
    const invite = await inviteMember(app, acme.accessToken);
    const mail = await smtp.waitFor(invite.email);
    expect(mail.headers).toMatch(/^From: Operator Platform <no-reply@localhost>$/m);
    expect(mail.headers).toMatch(new RegExp(`^To: ${invite.email}$`, 'm'));
    expect(mail.headers).toMatch(/^Subject: You're invited to join Acme Casino$/m);
    expect(mail.text).toContain(invite.acceptUrl);

    const resent = (await http(teamUrl(app, `/operators/me/invites/${invite.id}/resend`), { method: 'POST', token: acme.accessToken })).body.data;
    const deadline = Date.now() + 30_000;
    while (smtp.received.filter((m) => m.to.includes(invite.email)).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const second = smtp.received.filter((m) => m.to.includes(invite.email))[1];
    expect(second?.text).toContain(resent.acceptUrl);
    expect(second?.text).not.toContain(invite.token);
  });
});
