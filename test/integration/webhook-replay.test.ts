import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { purgeExpiredWebhookDeliveries } from '../../db/queries/webhookDeliveries';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { http } from '../helpers/http';
import { startProvider, type TestProvider } from '../helpers/providerServer';

/**
 * Replay protection of `POST /webhook-receiver/:id`: Standard Webhooks signatures (a signed id and timestamp within
 * 5 minutes) and delivery ids deduplicated per operator and webhook; the spec's `X-Service-Signature` still accepted.
 */
const SECRET = 'replay-secret-0123456789';
const NATIVE_SECRET = `whsec_${Buffer.from('a native standard webhooks key!!').toString('base64')}`;
const specSign = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');
const unauthorised = (message: string) => ({ success: false, error: { code: 'INVALID_SIGNATURE', message } });

/** What a Standard Webhooks sender sends; a trigger secret that is not `whsec_…` is handed to it as `whsec_` + base64. */
function standardHeaders(secret: string, id: string, body: string, at = new Date()): Record<string, string> {
  const sender = new Webhook(secret.startsWith('whsec_') ? secret : `whsec_${Buffer.from(secret).toString('base64')}`);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': sender.sign(id, at, body),
  };
}

let app: TestApp;
let provider: TestProvider;
let acme: AutomationsClient;
let rival: AutomationsClient;

beforeAll(async () => {
  app = await startTestApp();
  provider = await startProvider(() => ({ status: 200, body: {} }));
  [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
});
afterAll(async () => {
  await provider.close();
  await app.close();
});

/** A webhook-triggered workflow that forwards each run's `ref` to the provider under `label`. */
async function hookedWorkflow(client: AutomationsClient, label: string, secret?: string): Promise<{ id: string; webhookId: string }> {
  const workflow = await client.create({
    name: `Hook ${label}`,
    nodes: [
      { id: 'hook', type: 'trigger.webhook', params: secret ? { secret } : {} },
      { id: 'forward', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/${label}`, body: { ref: '{{ trigger.ref }}' } } },
    ],
    edges: [{ from: 'hook', to: 'forward' }],
  });
  return { id: workflow.id, webhookId: workflow.nodes[0].params.webhookId };
}

const deliver = (webhookId: string, body: string, headers: Record<string, string>) =>
  http(`${app.url}/webhook-receiver/${webhookId}`, { method: 'POST', rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
const runCount = async (client: AutomationsClient, workflowId: string) => (await client.wf(`/workflows/${workflowId}/runs?limit=100`)).body.data.length;
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
const accepted = (runId: unknown) => ({ status: 202, body: { success: true, data: { accepted: true, runId } } });

describe('Standard Webhooks signatures', () => {
  let hook: { id: string; webhookId: string };
  beforeAll(async () => {
    hook = await hookedWorkflow(acme, 'standard', SECRET);
  });

  it('202 and one run; the same delivery three times (and three at once) starts no second run', async () => {
    const body = JSON.stringify({ ref: 'std-1' });
    const headers = standardHeaders(SECRET, 'msg_std_1', body);
    const first = await deliver(hook.webhookId, body, headers);
    expect(first).toMatchObject(accepted(expect.stringMatching(/^run_/)));
    const runId = first.body.data.runId;
    for (let i = 0; i < 3; i += 1) expect(await deliver(hook.webhookId, body, headers)).toMatchObject(accepted(runId));

    const concurrentBody = JSON.stringify({ ref: 'std-2' });
    const concurrent = standardHeaders(SECRET, 'msg_std_2', concurrentBody);
    const answers = await Promise.all([1, 2, 3].map(() => deliver(hook.webhookId, concurrentBody, concurrent)));
    expect(new Set(answers.map((answer) => answer.body.data.runId)).size).toBe(1);

    const runs = await waitForRuns(acme, hook.id, 2);
    await settle();
    expect(await runCount(acme, hook.id)).toBe(2);
    expect(runs.map((run) => run.input.ref).sort()).toEqual(['std-1', 'std-2']);
    expect(provider.requests.filter((request) => request.path === '/standard')).toHaveLength(2);
  });

  it('401 for a timestamp more than 5 minutes old or ahead, a wrong signature, or a partial set of headers', async () => {
    const body = JSON.stringify({ ref: 'refused' });
    const tolerance = unauthorised('webhook-timestamp is more than 5 minutes away from the server clock');
    const old = standardHeaders(SECRET, 'msg_old', body, new Date(Date.now() - 6 * 60_000));
    expect(await deliver(hook.webhookId, body, old)).toMatchObject({ status: 401, body: tolerance });
    const ahead = standardHeaders(SECRET, 'msg_ahead', body, new Date(Date.now() + 6 * 60_000));
    expect(await deliver(hook.webhookId, body, ahead)).toMatchObject({ status: 401, body: tolerance });

    const forged = standardHeaders('some-other-secret-entirely', 'msg_forged', body);
    expect(await deliver(hook.webhookId, body, forged)).toMatchObject({
      status: 401,
      body: unauthorised('webhook-signature has no v1 signature of webhook-id, webhook-timestamp and the raw body under the secret'),
    });
    const signed = standardHeaders(SECRET, 'msg_tampered', body);
    expect(await deliver(hook.webhookId, JSON.stringify({ ref: 'tampered' }), signed)).toMatchObject({ status: 401 });
    expect(await deliver(hook.webhookId, body, { ...signed, 'webhook-id': 'msg_other_id' })).toMatchObject({ status: 401 });
    expect(await deliver(hook.webhookId, body, { ...signed, 'webhook-timestamp': 'yesterday' })).toMatchObject({
      status: 401,
      body: unauthorised('webhook-timestamp must be the send time in Unix seconds'),
    });

    expect(await deliver(hook.webhookId, body, { 'webhook-id': 'msg_unsigned_id', 'x-service-signature': specSign(body) })).toMatchObject({
      status: 401,
      body: unauthorised(
        'webhook-timestamp and webhook-signature missing: webhook-id, webhook-timestamp and webhook-signature go together, so that the id and time are signed',
      ),
    });
    await settle();
    expect(await runCount(acme, hook.id)).toBe(2);
  });

  it('a whsec_ secret is the base64 of the key, as Standard Webhooks senders use it', async () => {
    const native = await hookedWorkflow(acme, 'native', NATIVE_SECRET);
    const body = JSON.stringify({ ref: 'native-1' });
    expect(await deliver(native.webhookId, body, standardHeaders(NATIVE_SECRET, 'msg_native', body))).toMatchObject(accepted(expect.any(String)));
    const raw = new Webhook(Buffer.from(NATIVE_SECRET).toString('base64'));
    const at = new Date();
    const literal = {
      'webhook-id': 'msg_literal',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': raw.sign('msg_literal', at, body),
    };
    expect((await deliver(native.webhookId, body, literal)).status).toBe(401);
    expect((await deliver(native.webhookId, body, { 'x-service-signature': specSign(body, NATIVE_SECRET) })).status).toBe(202);
  });
});

describe("the spec's X-Service-Signature", () => {
  it('still starts a run per request: it signs no id or time, so a repeat cannot be told from a new delivery', async () => {
    const hook = await hookedWorkflow(acme, 'spec', SECRET);
    const body = JSON.stringify({ ref: 'spec-1' });
    const first = await deliver(hook.webhookId, body, { 'x-service-signature': specSign(body) });
    const second = await deliver(hook.webhookId, body, { 'x-service-signature': `sha256=${specSign(body)}` });
    expect(first).toMatchObject(accepted(expect.stringMatching(/^run_/)));
    expect(second).toMatchObject(accepted(expect.stringMatching(/^run_/)));
    expect(second.body.data.runId).not.toBe(first.body.data.runId);
    expect(await deliver(hook.webhookId, body, { 'x-service-signature': specSign(body, 'wrong-secret-0000') })).toMatchObject({
      status: 401,
      body: unauthorised('X-Service-Signature must be the hex HMAC-SHA256 of the raw body'),
    });
    await waitForRuns(acme, hook.id, 2);
  });
});

describe('delivery ids without a secret, across operators, and their retention', () => {
  it('an unsigned webhook deduplicates by webhook-id when sent; without one every request runs', async () => {
    const hook = await hookedWorkflow(acme, 'open');
    const body = JSON.stringify({ ref: 'open-1' });
    const first = await deliver(hook.webhookId, body, { 'webhook-id': 'evt-1' });
    expect(await deliver(hook.webhookId, body, { 'webhook-id': 'evt-1' })).toMatchObject(accepted(first.body.data.runId));
    expect((await deliver(hook.webhookId, body, { 'webhook-id': 'evt-2' })).body.data.runId).not.toBe(first.body.data.runId);
    expect((await deliver(hook.webhookId, body, {})).status).toBe(202);
    expect(await deliver(hook.webhookId, body, { 'webhook-id': 'x'.repeat(257) })).toMatchObject({
      status: 400,
      body: { success: false, error: { code: 'INVALID_HEADER', message: 'webhook-id must be 1 to 256 visible ASCII characters' } },
    });
    await waitForRuns(acme, hook.id, 3);
    await settle();
    expect(await runCount(acme, hook.id)).toBe(3);
  });

  it("keeps delivery ids per operator and webhook: the same id at another operator's webhook runs there; its secret signs nothing here", async () => {
    const mine = await hookedWorkflow(acme, 'mine', SECRET);
    const theirs = await hookedWorkflow(rival, 'theirs', 'rival-secret-9876543210');
    const body = JSON.stringify({ ref: 'shared-id' });
    const here = await deliver(mine.webhookId, body, standardHeaders(SECRET, 'msg_shared', body));
    const there = await deliver(theirs.webhookId, body, standardHeaders('rival-secret-9876543210', 'msg_shared', body));
    expect([here.status, there.status]).toEqual([202, 202]);
    expect(there.body.data.runId).not.toBe(here.body.data.runId);
    expect((await deliver(mine.webhookId, body, standardHeaders('rival-secret-9876543210', 'msg_cross', body))).status).toBe(401);
    expect((await deliver('whk_unknown', body, standardHeaders(SECRET, 'msg_unknown', body))).status).toBe(404);
    const [theirRun] = await waitForRuns(rival, theirs.id, 1);
    expect(theirRun.id).toBe(there.body.data.runId);
    expect((await acme.wf(`/runs/${there.body.data.runId}`)).status).toBe(404);
    const rows = await app.deps.db('webhook_deliveries').where({ delivery_id: 'msg_shared' }).select('operator_id', 'webhook_id');
    expect(rows.map((row) => row.operator_id).sort()).toEqual([acme.operator.operatorId, rival.operator.operatorId].sort());
  });

  it('forgets a delivery id after 24 hours: a repeat then runs again, and the daily purge deletes it', async () => {
    const hook = await hookedWorkflow(acme, 'aged');
    const body = JSON.stringify({ ref: 'aged' });
    const first = await deliver(hook.webhookId, body, { 'webhook-id': 'evt-aged' });
    const row = () => app.deps.db('webhook_deliveries').where({ webhook_id: hook.webhookId, delivery_id: 'evt-aged' });
    await row().update({ created_at: app.deps.db.raw("now() - interval '25 hours'") });
    const later = await deliver(hook.webhookId, body, { 'webhook-id': 'evt-aged' });
    expect(later.body.data.runId).not.toBe(first.body.data.runId);
    expect((await row().first()).run_id).toBe(later.body.data.runId);

    await row().update({ created_at: app.deps.db.raw("now() - interval '25 hours'") });
    expect(await purgeExpiredWebhookDeliveries(app.deps.db)).toBeGreaterThanOrEqual(1);
    expect(await row().first()).toBeUndefined();
    await waitForRuns(acme, hook.id, 2);
  });
});
