import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';
import { automationsClient, type AutomationsClient } from '../helpers/automations';

/** The backtracking regex, hidden from any static check by `$eval`: only a budget stops it. */
const RUNAWAY = `$eval('$contains("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /^(a+)+$/)')`;
const SAMPLE = { event: 'entity_event.transaction', entity: { externalId: 'p-7' }, data: { type: 'deposit', amount: 250000, currency: 'EUR' } };

describe('POST /workflows-api/expressions/preview', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  const preview = (client: AutomationsClient, body: unknown) => client.wf('/expressions/preview', { method: 'POST', body });

  beforeAll(async () => {
    app = await startTestApp();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
  });
  afterAll(() => app.close());

  describe('protection', () => {
    it('needs credentials: 401 UNAUTHORIZED without or with a bad key', async () => {
      const body = { expression: 'true', kind: 'condition' };
      expect(await http(`${app.url}/workflows-api/expressions/preview`, { method: 'POST', body })).toMatchObject({
        status: 401,
        body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
      });
      expect((await http(`${app.url}/workflows-api/expressions/preview`, { method: 'POST', body, token: 'svc_live_nope' })).status).toBe(401);
    });

    it('lets any member of the operator preview (it changes nothing), a Member’s session too', async () => {
      const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
      const response = await http(`${app.url}/workflows-api/expressions/preview`, {
        method: 'POST',
        token: member.accessToken,
        body: { expression: 'trigger.data.amount > 100000', kind: 'condition', sample: SAMPLE },
      });
      expect(response).toMatchObject({ status: 200, body: { success: true, data: { ok: true, value: true } } });
    });
  });

  describe('errors', () => {
    it('400 naming the field: MISSING_FIELDS without an expression, VALIDATION_FAILED for a bad kind, size, sample, field or both sources', async () => {
      expect(await preview(acme, { kind: 'condition' })).toMatchObject({
        status: 400,
        body: {
          success: false,
          error: { code: 'MISSING_FIELDS', message: 'Missing required fields: expression', details: [{ field: 'expression', message: 'is required' }] },
        },
      });
      const refused = async (body: unknown, field: string, message: string) =>
        expect(await preview(acme, body)).toMatchObject({
          status: 400,
          body: { success: false, error: { code: 'VALIDATION_FAILED', message: `Invalid input: ${field}: ${message}`, details: [{ field, message }] } },
        });
      await refused({ expression: 'true', kind: 'filter' }, 'kind', 'Invalid option: expected one of "condition"|"template"');
      await refused({ expression: 'x'.repeat(4_001), kind: 'condition' }, 'expression', 'Too big: expected string to have <=4000 characters');
      await refused({ expression: 'true', kind: 'condition', sample: 'p-1' }, 'sample', 'Invalid input: expected record, received string');
      await refused({ expression: 'true', kind: 'condition', sample: {}, runId: 'run_x' }, 'runId', 'give either sample or runId, not both');
      await refused({ expression: 'true', kind: 'condition', extra: 1 }, 'body', 'Unrecognized key: "extra"');
    });

    it('a run that does not exist answers 404 RUN_NOT_FOUND', async () => {
      expect(await preview(acme, { expression: 'true', kind: 'condition', runId: 'run_00000000000000000000000000' })).toMatchObject({
        status: 404,
        body: { success: false, error: { code: 'RUN_NOT_FOUND', message: 'Run not found' } },
      });
    });

    it('an expression that does not compile or fails is an answer: 200, ok false, EXPRESSION_ERROR with JSONata’s message', async () => {
      const broken = await preview(acme, { expression: 'trigger.data.amount >', kind: 'condition', sample: SAMPLE });
      expect(broken.status).toBe(200);
      expect(broken.body.data).toEqual({ ok: false, code: 'EXPRESSION_ERROR', message: expect.stringMatching(/^Invalid expression "trigger.data.amount >"/) });
      const failing = await preview(acme, { expression: 'Amount: {{ $number("many") }}', kind: 'template', sample: SAMPLE });
      expect(failing.body.data).toEqual({
        ok: false,
        code: 'EXPRESSION_ERROR',
        message: 'Expression "$number(\\"many\\")" failed: Unable to cast value to a number: "many"',
      });
    });

    it('a budget-breaking expression answers its budget code (EXPRESSION_TIMEOUT) at once, not a hang', async () => {
      const started = Date.now();
      const response = await preview(acme, { expression: RUNAWAY, kind: 'condition', sample: SAMPLE });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ok: false,
        code: 'EXPRESSION_TIMEOUT',
        message: `Evaluating expression took more than the ${app.deps.config.EXPRESSION_TIMEOUT_MS} ms of CPU an expression may use`,
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      // The sandbox is back for the next preview.
      expect((await preview(acme, { expression: '1 + 1 = 2', kind: 'condition' })).body.data).toEqual({ ok: true, value: true });
    });
  });

  describe('values', () => {
    it('a condition answers true or false over the sample, as a run would', async () => {
      expect((await preview(acme, { expression: 'trigger.data.amount > 100000', kind: 'condition', sample: SAMPLE })).body).toEqual({
        success: true,
        data: { ok: true, value: true },
      });
      expect((await preview(acme, { expression: 'trigger.data.currency = "GBP"', kind: 'condition', sample: SAMPLE })).body.data).toEqual({
        ok: true,
        value: false,
      });
    });

    it('a wait_for_event filter reads the arriving event as `event` beside the trigger', async () => {
      const deposit = { id: 'evt_2', event: 'entity_event.transaction', occurredAt: '2026-11-24T10:00:00.000Z', data: { type: 'deposit', amount: 900 } };
      const filter = 'event.data.type = "deposit" and event.data.amount < trigger.data.amount';
      expect((await preview(acme, { expression: filter, kind: 'condition', sample: SAMPLE, event: deposit })).body.data).toEqual({ ok: true, value: true });
      expect((await preview(acme, { expression: filter, kind: 'condition', sample: SAMPLE })).body.data).toEqual({ ok: true, value: false });
    });

    it('a template keeps a whole expression’s type and interpolates text; no sample is an empty trigger', async () => {
      expect((await preview(acme, { expression: '{{ trigger.data.amount / 100 }}', kind: 'template', sample: SAMPLE })).body.data).toEqual({
        ok: true,
        value: 2500,
      });
      expect((await preview(acme, { expression: 'Player {{ trigger.entity.externalId }} paid', kind: 'template', sample: SAMPLE })).body.data).toEqual({
        ok: true,
        value: 'Player p-7 paid',
      });
      expect((await preview(acme, { expression: '{{ trigger.data.amount }}', kind: 'template' })).body.data).toEqual({ ok: true, value: null });
    });

    it("a run's trigger payload and its steps' outputs, by runId; operator B gets 404 for A's run", async () => {
      const workflow = await acme.create({
        name: 'Preview me',
        nodes: [
          { id: 'start', type: 'trigger.manual', params: {} },
          { id: 'wait', type: 'action.delay', params: { seconds: 1 } },
        ],
        edges: [{ from: 'start', to: 'wait' }],
      });
      const run = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: { playerId: 'p-9', amount: 120 } });
      expect(run.status).toBe(200);
      const runId = run.body.data.id as string;
      const answer = await preview(acme, { expression: '{{ trigger.playerId & " waited " & nodes.wait.waitedSeconds }}', kind: 'template', runId });
      expect(answer.body).toEqual({ success: true, data: { ok: true, value: 'p-9 waited 1' } });
      expect((await preview(acme, { expression: 'trigger.amount >= 120 and workflow.name = "Preview me"', kind: 'condition', runId })).body.data).toEqual({
        ok: true,
        value: true,
      });

      expect(await preview(rival, { expression: 'trigger.amount', kind: 'template', runId })).toMatchObject({
        status: 404,
        body: { success: false, error: { code: 'RUN_NOT_FOUND', message: 'Run not found' } },
      });
    });
  });

  it('is rate limited per operator (expressions:preview): 429 RATE_LIMITED with Retry-After past the limit', async () => {
    const limited = await startTestApp({ RATE_LIMIT_EXPRESSION_PREVIEW: '2' });
    try {
      const client = await automationsClient(limited);
      const body = { expression: 'true', kind: 'condition' };
      expect((await preview(client, body)).status).toBe(200);
      expect((await preview(client, body)).status).toBe(200);
      const refused = await preview(client, body);
      expect(refused).toMatchObject({ status: 429, body: { success: false, error: { code: 'RATE_LIMITED' } } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
