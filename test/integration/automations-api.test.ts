import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';
import { chain, automationsClient, type AutomationsClient } from '../helpers/automations';

const DESIGN_EXAMPLE = {
  name: 'Big deposit alert',
  description: 'Flags large deposits',
  active: true,
  mcp_exposed: true,
  nodes: [
    { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
    { id: 'big', type: 'condition', params: { expression: 'trigger.data.amount > 100000' } },
    { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 80 } },
  ],
  edges: [
    { from: 'start', to: 'big' },
    { from: 'big', to: 'flag', when: true },
  ],
};

describe('workflow management API (/workflows-api)', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;

  beforeAll(async () => {
    app = await startTestApp();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
  });
  afterAll(() => app.close());

  describe('protection', () => {
    it('needs credentials: 401 UNAUTHORIZED without, with a bad key, and a session of a Member cannot write (403 FORBIDDEN)', async () => {
      expect(await http(`${app.url}/workflows-api/workflows`)).toMatchObject({
        status: 401,
        body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
      });
      expect((await http(`${app.url}/workflows-api/usage`, { token: 'svc_live_nope' })).status).toBe(401);
      const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
      const write = await http(`${app.url}/workflows-api/workflows`, { method: 'POST', token: member.accessToken, body: DESIGN_EXAMPLE });
      expect(write).toMatchObject({
        status: 403,
        body: { success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage workflows' } },
      });
      const read = await http(`${app.url}/workflows-api/workflows`, { token: member.accessToken });
      expect(read.status).toBe(200);
      const owner = await http(`${app.url}/workflows-api/workflows`, {
        method: 'POST',
        token: acme.operator.accessToken,
        body: { ...DESIGN_EXAMPLE, name: 'Owner made' },
      });
      expect(owner.status).toBe(201);
    });

    it("keeps operators apart: B cannot read, list, update, run, delete or see the runs of A's workflow", async () => {
      const workflow = await acme.create({ ...chain('Private flow', [{ id: 'wait', type: 'action.delay', params: { seconds: 1 } }]) });
      const run = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
      const notFound = { success: false, error: { code: 'WORKFLOW_NOT_FOUND', message: 'Workflow not found' } };
      expect(await rival.wf(`/workflows/${workflow.id}`)).toMatchObject({ status: 404, body: notFound });
      expect(await rival.wf(`/workflows/${workflow.id}`, { method: 'PUT', body: chain('Hijack', []) })).toMatchObject({ status: 404, body: notFound });
      expect(await rival.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} })).toMatchObject({ status: 404, body: notFound });
      expect(await rival.wf(`/workflows/${workflow.id}/runs`)).toMatchObject({ status: 404, body: notFound });
      expect(await rival.wf(`/runs/${run.body.data.id}`)).toMatchObject({
        status: 404,
        body: { success: false, error: { code: 'RUN_NOT_FOUND', message: 'Run not found' } },
      });
      expect(await rival.wf(`/workflows/${workflow.id}`, { method: 'DELETE' })).toMatchObject({ status: 404, body: notFound });
      expect((await rival.wf('/workflows')).body.data.map((w: any) => w.id)).not.toContain(workflow.id);
      expect((await acme.wf(`/workflows/${workflow.id}`)).status).toBe(200);
    });
  });

  describe('definition validation: 400 VALIDATION_FAILED with a details list naming each problem', () => {
    it('reports unknown types, missing and unknown params, a missing trigger, bad expressions, cron and timezone together', async () => {
      const response = await acme.wf('/workflows', {
        method: 'POST',
        body: {
          name: 'Broken',
          nodes: [
            { id: 'tick', type: 'trigger.schedule', params: { cron: '61 * * * *', timezone: 'Mars/Olympus' } },
            { id: 'check', type: 'condition', params: { expression: 'trigger.amount >' } },
            { id: 'x', type: 'action.teleport', params: {} },
            { id: 'state', type: 'action.set_state', params: { key: 'risk_score', value: 1, colour: 'red' } },
          ],
          edges: [
            { from: 'tick', to: 'check' },
            { from: 'check', to: 'state' },
            { from: 'tick', to: 'x' },
          ],
        },
      });
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      const fields = response.body.error.details.map((problem: any) => problem.field);
      expect(fields).toEqual(
        expect.arrayContaining([
          'nodes[0].params.cron',
          'nodes[0].params.timezone',
          'nodes[1].params.expression',
          'nodes[2].type',
          'nodes[3].params.externalId',
          'nodes[3].params.colour',
          'edges[1].when',
        ]),
      );
      expect(response.body.error.message).toMatch(/^Invalid workflow: /);
    });

    it('refuses a definition without a trigger, with a cycle, or with a non-object body', async () => {
      const noTrigger = await acme.wf('/workflows', {
        method: 'POST',
        body: { name: 'No trigger', nodes: [{ id: 'w', type: 'action.delay', params: { seconds: 1 } }], edges: [] },
      });
      expect(noTrigger.status).toBe(400);
      expect(noTrigger.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'nodes' })]));
      const cycle = await acme.wf('/workflows', {
        method: 'POST',
        body: {
          name: 'Loop',
          nodes: [
            { id: 's', type: 'trigger.manual', params: {} },
            { id: 'a', type: 'action.delay', params: { seconds: 1 } },
            { id: 'b', type: 'action.delay', params: { seconds: 1 } },
          ],
          edges: [
            { from: 's', to: 'a' },
            { from: 'a', to: 'b' },
            { from: 'b', to: 'a' },
          ],
        },
      });
      expect(cycle.status).toBe(400);
      expect(cycle.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'edges', message: expect.stringMatching(/cycle/) })]));
      const notObject = await acme.wf('/workflows', { method: 'POST', body: [1, 2] });
      expect(notObject).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
    });
  });

  describe('lifecycle', () => {
    it('creates (201, version 1), reads, lists, updates (version + 1, runs record it), and deletes', async () => {
      const created = await acme.wf('/workflows', { method: 'POST', body: DESIGN_EXAMPLE });
      expect(created.status).toBe(201);
      const record = created.body.data;
      expect(record).toEqual({
        id: expect.stringMatching(/^wf_[0-9a-f]{32}$/),
        name: 'Big deposit alert',
        description: 'Flags large deposits',
        active: true,
        mcp_exposed: true,
        mcp_tool_name: 'big_deposit_alert',
        version: 1,
        nodes: DESIGN_EXAMPLE.nodes,
        edges: DESIGN_EXAMPLE.edges,
        layout: {},
        run_control: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect((await acme.wf(`/workflows/${record.id}`)).body.data).toEqual(record);
      const second = await acme.wf('/workflows', { method: 'POST', body: DESIGN_EXAMPLE });
      expect(second.body.data.mcp_tool_name).toBe('big_deposit_alert_2');
      const list = await acme.wf('/workflows?limit=1');
      expect(list.body).toMatchObject({ success: true, count: expect.any(Number) });
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0].id).toBe(second.body.data.id);

      const updated = await acme.wf(`/workflows/${record.id}`, {
        method: 'PUT',
        body: {
          ...record,
          description: 'Now with a higher bar',
          nodes: [DESIGN_EXAMPLE.nodes[0], { ...DESIGN_EXAMPLE.nodes[1], params: { expression: 'trigger.data.amount > 500000' } }, DESIGN_EXAMPLE.nodes[2]],
        },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({
        id: record.id,
        version: 2,
        description: 'Now with a higher bar',
        mcp_tool_name: 'big_deposit_alert',
        created_at: record.created_at,
      });
      const incomplete = await acme.wf(`/workflows/${record.id}/test`, { method: 'POST', body: { data: { amount: 1 } } });
      expect(incomplete.body.data).toMatchObject({
        workflowVersion: 2,
        status: 'failed',
        error: { code: 'MISSING_TRIGGER_FIELD', message: 'Missing required trigger fields: type, currency' },
      });
      const run = await acme.wf(`/workflows/${record.id}/test`, { method: 'POST', body: { data: { type: 'deposit', amount: 1, currency: 'EUR' } } });
      expect(run.body.data).toMatchObject({ workflowVersion: 2, status: 'completed' });
      expect(run.body.data.nodes.map((node: any) => node.status)).toEqual(['completed', 'completed', 'skipped']);

      const deleted = await acme.wf(`/workflows/${record.id}`, { method: 'DELETE' });
      expect(deleted.body).toEqual({ success: true, data: { id: record.id, deleted: true } });
      expect((await acme.wf(`/workflows/${record.id}`)).status).toBe(404);
      expect((await acme.wf(`/runs/${run.body.data.id}`)).status).toBe(200);
      const row = await app.deps.db('automations').where({ id: record.id }).first();
      expect(row.deleted_at).not.toBeNull();
    });

    it('keeps tool names unique: long names, renames onto a taken name and concurrent creates each get a free one', async () => {
      const long = 'A very long workflow name that goes well past the sixty four characters of a tool name';
      const first = await acme.create({ ...DESIGN_EXAMPLE, name: `${long} one` });
      const second = await acme.create({ ...DESIGN_EXAMPLE, name: `${long} two` });
      expect(first.mcp_tool_name).toHaveLength(64);
      expect(second.mcp_tool_name).toMatch(/_2$/);
      const renamed = await acme.wf(`/workflows/${second.id}`, { method: 'PUT', body: { ...second, name: `${long} three` } });
      expect(renamed.status).toBe(200);
      const other = await acme.create({ ...DESIGN_EXAMPLE, name: 'Rename target' });
      const onto = await acme.wf(`/workflows/${other.id}`, { method: 'PUT', body: { ...other, name: `${long} one` } });
      expect(onto.status).toBe(200);
      const concurrent = await Promise.all(
        Array.from({ length: 4 }, () => acme.wf('/workflows', { method: 'POST', body: { ...DESIGN_EXAMPLE, name: 'Same name' } })),
      );
      expect(concurrent.map((response) => response.status)).toEqual([201, 201, 201, 201]);
      const names = [first, renamed.body.data, onto.body.data, ...concurrent.map((response) => response.body.data)].map((record) => record.mcp_tool_name);
      expect(new Set(names).size).toBe(names.length);
    });

    it('filters and pages lists, refuses a non-object test payload, and reports usage for the month', async () => {
      expect(await acme.wf('/workflows?limit=0')).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
      const paused = await acme.create({ ...chain('Paused flow', [{ id: 'wait', type: 'action.delay', params: { seconds: 1 } }]), active: false });
      const inactive = (await acme.wf('/workflows?active=false&limit=100')).body.data;
      expect(inactive.map((w: any) => w.id)).toContain(paused.id);
      expect(inactive.every((w: any) => w.active === false)).toBe(true);
      expect((await acme.wf('/workflows?active=true&limit=100')).body.data.map((w: any) => w.id)).not.toContain(paused.id);
      expect(await acme.wf(`/workflows/${paused.id}/runs?limit=101`)).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
      expect(await acme.wf(`/workflows/${paused.id}/test`, { method: 'POST', body: [1] })).toMatchObject({
        status: 400,
        body: { success: false, error: { code: 'VALIDATION_FAILED', message: 'Invalid input: body must be a JSON object (the trigger payload)' } },
      });
      const usage = await acme.wf('/usage');
      expect(usage.status).toBe(200);
      expect(usage.body.data).toEqual({
        month: new Date().toISOString().slice(0, 7),
        actions: { used: expect.any(Number), limit: app.deps.config.QUOTA_ACTIONS_PER_MONTH, remaining: expect.any(Number) },
        aiActions: { used: 0, limit: app.deps.config.QUOTA_AI_ACTIONS_PER_MONTH, remaining: app.deps.config.QUOTA_AI_ACTIONS_PER_MONTH },
      });
    });
  });
});
