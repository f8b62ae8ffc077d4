import { createHmac } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
import { automationScheduleId } from '../../temporal/automationSchedules';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { chain, waitForRuns, automationsClient, type AutomationsClient } from '../helpers/automations';
import { eventually } from '../helpers/eventually';

const sign = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('workflow triggers: events, webhooks, schedules', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  let provider: TestProvider;

  beforeAll(async () => {
    app = await startTestApp();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
    provider = await startProvider(() => ({ status: 200, body: {} }));
    for (const client of [acme, rival]) {
      const player = await client.call('/entities', { method: 'POST', body: { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } } });
      expect(player.status).toBe(201);
    }
  });
  afterAll(async () => {
    await provider.close();
    await app.close();
  });

  describe('event-driven', () => {
    it('fires matching active workflows of the same operator only, once per event, through the JSONata filter', async () => {
      const workflow = await acme.create({
        name: 'Big deposits',
        nodes: [
          { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.amount >= 1000' } },
          {
            id: 'flag',
            type: 'action.set_state',
            params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: '{{ trigger.data.amount }}' },
          },
        ],
        edges: [{ from: 'start', to: 'flag' }],
      });
      const deposit = (amount: number, client = acme) =>
        client.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR' } } });
      const started = Date.now();
      const big = await deposit(5000);
      expect(big.status).toBe(201);
      await deposit(10);
      await deposit(7000, rival);

      const [run] = await waitForRuns(acme, workflow.id, 1);
      // A live listener, not the minute's sweep, dispatched it (the event-latency suite measures the p95).
      const latencyMs = Date.parse(run.completedAt) - started;
      expect(latencyMs).toBeLessThan(10_000);
      expect(run).toMatchObject({
        source: 'event',
        status: 'completed',
        input: {
          event: 'entity_event.transaction',
          operatorId: acme.operator.operatorId,
          entity: { externalId: 'p-1' },
          data: { amount: 5000, eventId: big.body.data.id },
        },
      });
      expect((await acme.call('/entities/p-1/state/risk_score')).body.data.value).toBe(5000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await acme.wf(`/workflows/${workflow.id}/runs`)).body.count).toBe(1);
      expect((await rival.call('/entities/p-1/state/risk_score')).status).toBe(404);
    });

    it('starts one run per (event, workflow) even when the event is dispatched again', async () => {
      const workflow = await acme.create({
        ...chain('Every session', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'loyalty_tier', value: 'gold' } }], {
          id: 'start',
          type: 'trigger.event',
          params: { event: 'entity_event.session' },
        }),
      });
      const session = await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'session', data: { device: 'ios' } } });
      expect(session.status).toBe(201);
      expect((await waitForRuns(acme, workflow.id, 1))[0].status).toBe('completed');
      await app.deps
        .db('outbox_events')
        .where({ operator_id: acme.operator.operatorId, source_event_id: session.body.data.id })
        .update({ dispatched_at: null });
      await app.deps.db.raw("NOTIFY outbox_events, ''");
      const dispatched = async () =>
        (await app.deps.db('outbox_events').where({ operator_id: acme.operator.operatorId, source_event_id: session.body.data.id }).first()).dispatched_at !==
        null;
      await eventually(dispatched, 20_000);
      // A second run would have been started before the row was marked dispatched; give its record a moment anyway.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await acme.wf(`/workflows/${workflow.id}/runs`)).body.count).toBe(1);
    });

    it('ignores events older than the workflow and events reaching an inactive workflow', async () => {
      const before = await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'support', data: {} } });
      expect(before.status).toBe(201);
      await app.deps.db('outbox_events').where({ source_event_id: before.body.data.id }).update({ dispatched_at: null });
      const workflow = await acme.create({
        ...chain('Support', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'loyalty_tier', value: 'silver' } }], {
          id: 'start',
          type: 'trigger.event',
          params: { event: 'entity_event.support' },
        }),
        active: false,
      });
      await app.deps.db.raw("NOTIFY outbox_events, ''");
      await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'support', data: {} } });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await acme.wf(`/workflows/${workflow.id}/runs`)).body.count).toBe(0);
      await acme.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: { ...workflow, active: true } });
      await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'support', data: {} } });
      expect((await waitForRuns(acme, workflow.id, 1)).map((run) => run.status)).toEqual(['completed']);
    });

    it('does not feed a run its own events back (no self-loop), while other workflows still see them', async () => {
      const echo = await acme.create({
        ...chain(
          'Bonus echo',
          [
            {
              id: 'again',
              type: 'action.record_event',
              params: { externalId: '{{ trigger.entity.externalId }}', eventType: 'bonus', data: { amount: '{{ trigger.data.amount + 1 }}' } },
            },
          ],
          { id: 'start', type: 'trigger.event', params: { event: 'entity_event.bonus' } },
        ),
      });
      const watcher = await acme.create({
        ...chain(
          'Bonus watcher',
          [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'balance', value: '{{ trigger.data.amount }}' } }],
          { id: 'start', type: 'trigger.event', params: { event: 'entity_event.bonus' } },
        ),
      });
      expect((await acme.call('/entities/p-1/events', { method: 'POST', body: { eventType: 'bonus', data: { amount: 10 } } })).status).toBe(201);
      const [echoRun] = await waitForRuns(acme, echo.id, 1);
      expect(echoRun.status).toBe('completed');
      expect(await waitForRuns(acme, watcher.id, 2)).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await acme.wf(`/workflows/${echo.id}/runs`)).body.count).toBe(1);
      const bonuses = await acme.call('/entities/p-1/events?type=bonus');
      expect(bonuses.body.data.map((event: any) => event.data.amount).sort()).toEqual([10, 11]);
    });

    it('the outbox-sweep workflow dispatches an event no listener was told about', async () => {
      const workflow = await acme.create({
        ...chain('Affiliate', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'loyalty_tier', value: 'affiliate' } }], {
          id: 'start',
          type: 'trigger.event',
          params: { event: 'entity.updated' },
        }),
      });
      const entity = await app.deps.db('entities').where({ operator_id: acme.operator.operatorId, external_id: 'p-1' }).first();
      await app.deps.db.transaction(async (trx) => {
        await trx.raw('SET LOCAL session_replication_role = replica');
        await trx('outbox_events').insert({
          id: 'evt_swept',
          operator_id: acme.operator.operatorId,
          event: 'entity.updated',
          entity_id: entity.id,
          payload: {
            id: 'evt_swept',
            event: 'entity.updated',
            operatorId: acme.operator.operatorId,
            occurredAt: new Date().toISOString(),
            entity: { id: entity.id, externalId: 'p-1', entityType: 'player' },
            data: {},
          },
        });
      });
      const swept = await app.deps.temporal.client.workflow.execute('outboxSweepWorkflow', {
        taskQueue: app.deps.config.TEMPORAL_TASK_QUEUE,
        workflowId: `outbox-sweep-test-${workflow.id}`,
      });
      expect(swept).toMatchObject({ claimed: expect.any(Number), started: expect.any(Number) });
      const [run] = await waitForRuns(acme, workflow.id, 1);
      expect(run).toMatchObject({ source: 'event', status: 'completed', input: { id: 'evt_swept' } });
    });
  });

  describe('inbound webhooks', () => {
    let workflow: any;
    let webhookId: string;
    const secret = 'whsec-0123456789abcdef';

    beforeAll(async () => {
      workflow = await acme.create({
        name: 'Payment callbacks',
        nodes: [
          {
            id: 'hook',
            type: 'trigger.webhook',
            params: { secret, name: 'acme-pay', inputSchema: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] } },
          },
          { id: 'forward', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/forwarded`, body: { ref: '{{ trigger.ref }}' } } },
        ],
        edges: [{ from: 'hook', to: 'forward' }],
      });
      webhookId = workflow.nodes[0].params.webhookId;
    });

    it('gives the node a webhook id and never returns or stores the secret in clear', async () => {
      expect(webhookId).toMatch(/^whk_[A-Za-z0-9_-]{43}$/);
      expect(workflow.nodes[0].params).toEqual({ name: 'acme-pay', inputSchema: expect.any(Object), webhookId, hasSecret: true });
      const row = await app.deps.db('automation_webhooks').where({ id: webhookId }).first();
      expect(row.secret_ciphertext).not.toContain(secret);
      expect(JSON.stringify(await app.deps.db('automations').where({ id: workflow.id }).first())).not.toContain(secret);
    });

    it('refuses a missing or wrong signature (401), an unknown webhook (404), a body over the limit (413) and a non-JSON body (400)', async () => {
      const body = JSON.stringify({ ref: 'r-1' });
      expect(
        await http(`${app.url}/webhook-receiver/${webhookId}`, { method: 'POST', rawBody: body, headers: { 'content-type': 'application/json' } }),
      ).toMatchObject({
        status: 401,
        body: { success: false, error: { code: 'INVALID_SIGNATURE', message: 'X-Service-Signature must be the hex HMAC-SHA256 of the raw body' } },
      });
      const wrong = await http(`${app.url}/webhook-receiver/${webhookId}`, {
        method: 'POST',
        rawBody: body,
        headers: { 'content-type': 'application/json', 'x-service-signature': sign(body, 'not-the-secret-at-all') },
      });
      expect(wrong.status).toBe(401);
      expect(await http(`${app.url}/webhook-receiver/whk_unknown`, { method: 'POST', body: { ref: 'x' } })).toMatchObject({
        status: 404,
        body: { success: false, error: { code: 'WEBHOOK_NOT_FOUND', message: 'Webhook not found' } },
      });
      const huge = JSON.stringify({ ref: 'x'.repeat(app.deps.config.WEBHOOK_BODY_LIMIT_BYTES) });
      expect(
        await http(`${app.url}/webhook-receiver/${webhookId}`, {
          method: 'POST',
          rawBody: huge,
          headers: { 'content-type': 'application/json', 'x-service-signature': sign(huge, secret) },
        }),
      ).toMatchObject({
        status: 413,
        body: { success: false, error: { code: 'PAYLOAD_TOO_LARGE' } },
      });
      const text = 'ref=r-1';
      expect(
        await http(`${app.url}/webhook-receiver/${webhookId}`, {
          method: 'POST',
          rawBody: text,
          headers: { 'content-type': 'text/plain', 'x-service-signature': sign(text, secret) },
        }),
      ).toMatchObject({
        status: 400,
        body: { success: false, error: { code: 'INVALID_JSON' } },
      });
      expect((await acme.wf(`/workflows/${workflow.id}/runs`)).body.count).toBe(0);
    });

    it('answers 202 at once and runs in the background (also under /functions/v1), emitting provider.webhook.<name>', async () => {
      const listener = await acme.create({
        ...chain(
          'On acme-pay',
          [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'loyalty_tier', value: '{{ trigger.data.ref }}' } }],
          { id: 'start', type: 'trigger.event', params: { event: 'provider.webhook.acme-pay' } },
        ),
      });
      const body = JSON.stringify({ ref: 'r-42' });
      const accepted = await http(`${app.url}/functions/v1/webhook-receiver/${webhookId}`, {
        method: 'POST',
        rawBody: body,
        headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${sign(body, secret)}` },
      });
      expect(accepted).toMatchObject({ status: 202, body: { success: true, data: { accepted: true, runId: expect.stringMatching(/^run_/) } } });
      const [run] = await waitForRuns(acme, workflow.id, 1);
      expect(run).toMatchObject({ id: accepted.body.data.runId, source: 'webhook', status: 'completed', input: { ref: 'r-42' } });
      expect(provider.requests.find((request) => request.path === '/forwarded')?.json).toEqual({ ref: 'r-42' });
      const [eventRun] = await waitForRuns(acme, listener.id, 1);
      expect(eventRun).toMatchObject({ source: 'event', status: 'completed', input: { event: 'provider.webhook.acme-pay', data: { ref: 'r-42' } } });
    });

    it('records a payload missing a required field as a failed run (MISSING_TRIGGER_FIELD)', async () => {
      const body = JSON.stringify({ other: 1 });
      const accepted = await http(`${app.url}/webhook-receiver/${webhookId}`, {
        method: 'POST',
        rawBody: body,
        headers: { 'content-type': 'application/json', 'x-service-signature': sign(body, secret) },
      });
      expect(accepted.status).toBe(202);
      await waitForRuns(acme, workflow.id, 2);
      const run = (await acme.wf(`/runs/${accepted.body.data.runId}`)).body.data;
      expect(run).toMatchObject({ status: 'failed', nodes: [], error: { code: 'MISSING_TRIGGER_FIELD' } });
    });

    it('answers 404 once the workflow is deactivated, and keeps the webhook id across updates', async () => {
      const inactive = await acme.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: { ...workflow, active: false } });
      expect(inactive.body.data.nodes[0].params).toMatchObject({ webhookId, hasSecret: true });
      expect((await http(`${app.url}/webhook-receiver/${webhookId}`, { method: 'POST', body: { ref: 'x' } })).status).toBe(404);
      const open = await acme.wf(`/workflows/${workflow.id}`, {
        method: 'PUT',
        body: { ...workflow, active: true, nodes: [{ ...workflow.nodes[0], params: { ...workflow.nodes[0].params, secret: null } }, workflow.nodes[1]] },
      });
      expect(open.body.data.nodes[0].params).toMatchObject({ webhookId, hasSecret: false });
      expect((await http(`${app.url}/webhook-receiver/${webhookId}`, { method: 'POST', body: { ref: 'unsigned' } })).status).toBe(202);
      await acme.wf(`/workflows/${workflow.id}`, { method: 'DELETE' });
      expect((await http(`${app.url}/webhook-receiver/${webhookId}`, { method: 'POST', body: { ref: 'x' } })).status).toBe(404);
    });
  });

  describe('schedules', () => {
    it('keeps a Temporal Schedule with the cron and timezone; triggering it runs with source schedule; update and delete follow', async () => {
      const workflow = await acme.create({
        ...chain('Nightly tier', [{ id: 'mark', type: 'action.set_state', params: { externalId: 'p-1', key: 'loyalty_tier', value: 'bronze' } }], {
          id: 'tick',
          type: 'trigger.schedule',
          params: { cron: '0 6 * * *', timezone: 'Europe/Malta' },
        }),
      });
      const handle = app.deps.temporal.client.schedule.getHandle(automationScheduleId(workflow.id, 'tick'));
      const described = await handle.describe();
      expect(described.spec.timezone).toBe('Europe/Malta');
      expect(JSON.stringify(described.spec)).toMatch(/"hour":\[\{"start":6/);
      await handle.trigger();
      const [run] = await waitForRuns(acme, workflow.id, 1);
      expect(run).toMatchObject({ source: 'schedule', status: 'completed', input: { scheduledAt: expect.any(String), triggerNodeId: 'tick' } });

      await acme.wf(`/workflows/${workflow.id}`, {
        method: 'PUT',
        body: { ...workflow, nodes: [{ ...workflow.nodes[0], params: { cron: '30 7 * * 1', timezone: 'America/New_York' } }, workflow.nodes[1]] },
      });
      expect((await handle.describe()).spec.timezone).toBe('America/New_York');
      await acme.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: { ...workflow, active: false } });
      await expect(handle.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
      await acme.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: { ...workflow, active: true } });
      expect((await handle.describe()).spec.timezone).toBe('Europe/Malta');
      await acme.wf(`/workflows/${workflow.id}`, { method: 'DELETE' });
      await expect(handle.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    });
  });
});
