import { backfillVersions } from '../../db/migrations/20261129100000_create_workflow_versions';
import { startAutomationRun } from '../../temporal/automationRuns';
import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { http } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';

/** Every save that changes the definition is a stored, immutable version; they are listed, compared and restored. */
describe('workflow versions (/workflows-api/workflows/:id/versions, /diff, /rollback)', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  const delay = (id: string, seconds: number) => ({ id, type: 'action.delay', params: { seconds } });
  const notFound = { success: false, error: { code: 'WORKFLOW_NOT_FOUND', message: 'Workflow not found' } };
  const versionNotFound = (version: number) => ({ success: false, error: { code: 'VERSION_NOT_FOUND', message: `Version ${version} not found` } });
  const versionsOf = (id: string) => app.deps.db('automation_versions').where({ automation_id: id }).orderBy('version').select('*');
  const put = (client: AutomationsClient, id: string, body: Record<string, unknown>) => client.wf(`/workflows/${id}`, { method: 'PUT', body });

  beforeAll(async () => {
    app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '300' });
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
  });
  afterAll(() => app.close());

  describe('protection', () => {
    it('needs credentials (401), lets a Member read versions, and refuses a Member a rollback (403) with nothing changed', async () => {
      const workflow = await acme.create(chain('Guarded', [delay('wait', 1)]));
      expect(await http(`${app.url}/workflows-api/workflows/${workflow.id}/versions`)).toMatchObject({
        status: 401,
        body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
      });
      expect((await http(`${app.url}/workflows-api/workflows/${workflow.id}/versions/1`, { token: 'svc_live_nope' })).status).toBe(401);
      const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
      const read = await http(`${app.url}/workflows-api/workflows/${workflow.id}/versions`, { token: member.accessToken });
      expect(read).toMatchObject({ status: 200, body: { success: true, count: 1 } });
      expect((await http(`${app.url}/workflows-api/workflows/${workflow.id}/diff?from=1&to=1`, { token: member.accessToken })).status).toBe(200);
      const rollback = await http(`${app.url}/workflows-api/workflows/${workflow.id}/versions/1/rollback`, { method: 'POST', token: member.accessToken });
      expect(rollback).toMatchObject({
        status: 403,
        body: { success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage workflows' } },
      });
      expect(await versionsOf(workflow.id)).toHaveLength(1);
    });

    it("answers operator B about A's workflow exactly as about a missing one, and changes nothing", async () => {
      const workflow = await acme.create(chain('Private', [delay('wait', 1)]));
      await put(acme, workflow.id, chain('Private', [delay('wait', 2)]));
      for (const path of [`/workflows/${workflow.id}/versions`, `/workflows/${workflow.id}/versions/1`, `/workflows/${workflow.id}/diff?from=1&to=2`]) {
        expect(await rival.wf(path)).toMatchObject({ status: 404, body: notFound });
        expect(await rival.wf(path.replace(workflow.id, 'wf_missing'))).toMatchObject({ status: 404, body: notFound });
      }
      expect(await rival.wf(`/workflows/${workflow.id}/versions/1/rollback`, { method: 'POST' })).toMatchObject({ status: 404, body: notFound });
      expect(await versionsOf(workflow.id)).toHaveLength(2);
      expect((await app.deps.db('automations').where({ id: workflow.id }).first('version')).version).toBe(2);
    });
  });

  describe('errors', () => {
    it('404 VERSION_NOT_FOUND for a version the workflow never had; 400 naming the field for a bad version, page or diff query', async () => {
      const workflow = await acme.create(chain('Errors', [delay('wait', 1)]));
      expect(await acme.wf(`/workflows/${workflow.id}/versions/7`)).toMatchObject({ status: 404, body: versionNotFound(7) });
      expect(await acme.wf(`/workflows/${workflow.id}/diff?from=1&to=9`)).toMatchObject({ status: 404, body: versionNotFound(9) });
      expect(await acme.wf(`/workflows/${workflow.id}/versions/3/rollback`, { method: 'POST' })).toMatchObject({ status: 404, body: versionNotFound(3) });
      expect(await acme.wf(`/workflows/wf_missing/versions/1/rollback`, { method: 'POST' })).toMatchObject({ status: 404, body: notFound });

      const fieldsOf = async (path: string, method = 'GET') => {
        const response = await acme.wf(path, { method });
        expect(response.status).toBe(400);
        return { code: response.body.error.code, fields: response.body.error.details.map((problem: any) => problem.field) };
      };
      expect(await fieldsOf(`/workflows/${workflow.id}/versions/abc`)).toEqual({ code: 'VALIDATION_FAILED', fields: ['version'] });
      expect(await fieldsOf(`/workflows/${workflow.id}/versions/0/rollback`, 'POST')).toEqual({ code: 'VALIDATION_FAILED', fields: ['version'] });
      expect(await fieldsOf(`/workflows/${workflow.id}/versions?limit=0`)).toEqual({ code: 'VALIDATION_FAILED', fields: ['limit'] });
      expect(await fieldsOf(`/workflows/${workflow.id}/diff?from=x&to=1`)).toEqual({ code: 'VALIDATION_FAILED', fields: ['from'] });
      expect(await fieldsOf(`/workflows/${workflow.id}/diff?from=1&to=1&colour=red`)).toEqual({ code: 'VALIDATION_FAILED', fields: ['query'] });
      expect(await fieldsOf(`/workflows/${workflow.id}/diff?from=1`)).toEqual({ code: 'MISSING_FIELDS', fields: ['to'] });
    });
  });

  describe('versions', () => {
    it('stores one row per version made (none for a layout-only save), lists them newest first with who saved them, and returns each whole', async () => {
      const created = await acme.create({ ...chain('Versioned', [delay('wait', 1)]), layout: { start: { x: 0, y: 0 } } });
      expect((await put(acme, created.id, { ...chain('Versioned', [delay('wait', 1)]), layout: { start: { x: 50, y: 0 } } })).body.data.version).toBe(1);
      expect((await put(acme, created.id, chain('Versioned', [delay('wait', 5)]))).body.data.version).toBe(2);
      const owner = await http(`${app.url}/workflows-api/workflows/${created.id}`, {
        method: 'PUT',
        token: acme.operator.accessToken,
        body: { ...chain('Versioned twice', [delay('wait', 5), delay('again', 1)]), description: 'Two waits' },
      });
      expect(owner.body.data.version).toBe(3);

      const rows = await versionsOf(created.id);
      const member = await app.deps
        .db('members as m')
        .join('users as u', 'u.id', 'm.user_id')
        .where({ 'm.operator_id': acme.operator.operatorId })
        .first('m.id', 'm.display_name', 'u.email');
      const key = await app.deps.db('api_keys').where({ operator_id: acme.operator.operatorId }).orderBy('created_at', 'desc').first('id', 'label');
      expect(rows.map((row: any) => [row.version, row.created_by])).toEqual([
        [1, `key:${key.id}`],
        [2, `key:${key.id}`],
        [3, `member:${member.id}`],
      ]);
      expect(rows[0].definition).toEqual({
        name: 'Versioned',
        description: '',
        active: true,
        mcp_exposed: false,
        mcp_tool_name: 'versioned',
        nodes: [
          { id: 'start', type: 'trigger.manual', params: {} },
          { id: 'wait', type: 'action.delay', params: { seconds: 1 } },
        ],
        edges: [{ from: 'start', to: 'wait' }],
        run_control: null,
      });
      expect(rows[0].definition).not.toHaveProperty('layout');

      const list = await acme.wf(`/workflows/${created.id}/versions?limit=2`);
      expect(list.body).toEqual({
        success: true,
        count: 3,
        data: [
          {
            version: 3,
            name: 'Versioned twice',
            description: 'Two waits',
            node_count: 3,
            edge_count: 2,
            created_at: rows[2].created_at.toISOString(),
            created_by: `member:${member.id}`,
            // Issue 44: who saved it, to read — the member's display name, else email; the key's label.
            saved_by: member.display_name || member.email,
          },
          {
            version: 2,
            name: 'Versioned',
            description: '',
            node_count: 2,
            edge_count: 1,
            created_at: rows[1].created_at.toISOString(),
            created_by: `key:${key.id}`,
            saved_by: `API key ${key.label || 'without a label'}`,
          },
        ],
      });
      expect((await acme.wf(`/workflows/${created.id}/versions?limit=2&offset=2`)).body.data.map((item: any) => item.version)).toEqual([1]);
      expect(await acme.wf(`/workflows/${created.id}/versions/1`)).toMatchObject({
        status: 200,
        body: { success: true, data: { workflow_id: created.id, version: 1, created_by: `key:${key.id}`, definition: rows[0].definition } },
      });
      // Another operator's member is never named, even if its id were stored.
      const stranger = await app.deps.db('members').where({ operator_id: rival.operator.operatorId }).first('id');
      await app.deps
        .db('automation_versions')
        .where({ automation_id: created.id, version: 1 })
        .update({ created_by: `member:${stranger.id}` });
      expect((await acme.wf(`/workflows/${created.id}/versions?offset=2`)).body.data[0]).toMatchObject({ version: 1, saved_by: null });
    });

    it('never stores a webhook secret in a version: the step keeps its webhookId and hasSecret', async () => {
      const hook = { id: 'hook', type: 'trigger.webhook', params: { secret: 'whsec-very-secret-value' } };
      const workflow = await acme.create(chain('Signed hook', [delay('wait', 1)], hook));
      const [row] = await versionsOf(workflow.id);
      expect(JSON.stringify(row.definition)).not.toContain('whsec-very-secret-value');
      expect(row.definition.nodes[0]).toEqual({
        id: 'hook',
        type: 'trigger.webhook',
        params: { webhookId: workflow.nodes[0].params.webhookId, hasSecret: true },
      });
    });

    it('diffs any two versions: fields, nodes added, removed and changed with each param, edges', async () => {
      const workflow = await acme.create(chain('Diffed', [delay('wait', 1), delay('old', 2)]));
      await put(acme, workflow.id, { ...chain('Diffed', [delay('wait', 9), delay('fresh', 3)]), description: 'Changed' });
      const diff = await acme.wf(`/workflows/${workflow.id}/diff?from=1&to=2`);
      expect(diff.body).toEqual({
        success: true,
        data: {
          from: 1,
          to: 2,
          fields: [{ field: 'description', before: '', after: 'Changed' }],
          nodes: {
            added: [{ id: 'fresh', type: 'action.delay', params: { seconds: 3 } }],
            removed: [{ id: 'old', type: 'action.delay', params: { seconds: 2 } }],
            changed: [{ id: 'wait', params: [{ path: 'seconds', before: 1, after: 9 }] }],
          },
          edges: { added: [{ from: 'wait', to: 'fresh' }], removed: [{ from: 'wait', to: 'old' }] },
        },
      });
    });
    it("the migration's backfill stores a workflow's current version from its row, without the layout, and is idempotent", async () => {
      const workflow = await acme.create({ ...chain('Backfilled', [delay('wait', 1)]), layout: { start: { x: 1, y: 2 } } });
      await put(acme, workflow.id, chain('Backfilled', [delay('wait', 4)]));
      const [, second] = await versionsOf(workflow.id);
      await app.deps.db('automation_versions').where({ automation_id: workflow.id }).delete();
      await backfillVersions(app.deps.db);
      await backfillVersions(app.deps.db);
      const rows = await versionsOf(workflow.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ version: 2, created_by: null, definition: second.definition });
    });
  });

  describe('rollback', () => {
    it("makes version K's definition a new version, keeps active, and a webhook step removed since answers again at its URL", async () => {
      const hook = { id: 'hook', type: 'trigger.webhook', params: {} };
      const v1 = await acme.create(chain('Restorable', [delay('wait', 1)], hook));
      const webhookId = v1.nodes[0].params.webhookId;
      await put(acme, v1.id, { ...chain('Restorable v2', [delay('wait', 2)]), active: false });
      expect(await app.deps.db('automation_webhooks').where({ id: webhookId }).first()).toBeUndefined();

      const restored = await acme.wf(`/workflows/${v1.id}/versions/1/rollback`, { method: 'POST' });
      expect(restored.status).toBe(200);
      expect(restored.body.data).toMatchObject({ id: v1.id, version: 3, name: 'Restorable', active: false, nodes: v1.nodes, edges: v1.edges });
      const rows = await versionsOf(v1.id);
      expect(rows.map((row: any) => row.version)).toEqual([1, 2, 3]);
      expect(rows[2].definition).toEqual({ ...rows[0].definition, active: false });
      expect(await app.deps.db('automation_webhooks').where({ id: webhookId }).first('automation_id', 'node_id')).toEqual({
        automation_id: v1.id,
        node_id: 'hook',
      });

      await put(acme, v1.id, { ...chain('Restorable', [delay('wait', 1)], hook), active: true });
      const delivered = await http(`${app.url}/webhook-receiver/${webhookId}`, { method: 'POST', body: { ref: 'again' } });
      expect(delivered.status).toBe(202);
      const same = await acme.wf(`/workflows/${v1.id}/versions/1/rollback`, { method: 'POST' });
      expect(same.body.data.version).toBe(4);
      expect(await versionsOf(v1.id)).toHaveLength(4);
    });

    it('refuses to bring back a signed webhook step whose secret was deleted with it: 409 VERSION_NOT_RESTORABLE naming the field', async () => {
      const hook = { id: 'hook', type: 'trigger.webhook', params: { secret: 'whsec-gone-with-the-step' } };
      const workflow = await acme.create(chain('Signed', [delay('wait', 1)], hook));
      await put(acme, workflow.id, chain('Signed', [delay('wait', 1)]));
      const refused = await acme.wf(`/workflows/${workflow.id}/versions/1/rollback`, { method: 'POST' });
      expect(refused).toMatchObject({
        status: 409,
        body: {
          success: false,
          error: {
            code: 'VERSION_NOT_RESTORABLE',
            details: [{ field: 'nodes[0].params.secret', message: 'the signing secret of this webhook no longer exists' }],
          },
        },
      });
      expect(await versionsOf(workflow.id)).toHaveLength(2);
    });
  });

  describe('runs and versions', () => {
    it('a run that sleeps through an update finishes on the version it began with; a new run uses the new version', async () => {
      const workflow = await acme.create(chain('Pinned', [delay('sleep', 3), delay('v1_step', 1)]));
      const first = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
      expect(first.status).toBe(202);
      expect((await put(acme, workflow.id, chain('Pinned', [delay('sleep', 1), delay('v2_step', 1)]))).body.data.version).toBe(2);
      const [finished] = await waitForRuns(acme, workflow.id, 1);
      expect(finished).toMatchObject({ id: first.body.data.id, status: 'completed', workflowVersion: 1 });
      expect(finished.nodes.map((node: any) => node.id)).toEqual(['start', 'sleep', 'v1_step']);

      const second = await acme.wf(`/workflows/${workflow.id}/test`, { method: 'POST', body: {} });
      const runs = await waitForRuns(acme, workflow.id, 2);
      const latest = runs.find((run) => run.id === second.body.data.id);
      expect(latest).toMatchObject({ status: 'completed', workflowVersion: 2 });
      expect(latest.nodes.map((node: any) => node.id)).toEqual(['start', 'sleep', 'v2_step']);
    });

    it('a run pinned to a stored version executes and records that version; a version never stored is ignored', async () => {
      const workflow = await acme.create(chain('Pin me', [delay('v1_step', 1)]));
      await put(acme, workflow.id, chain('Pin me', [delay('v2_step', 1)]));
      const operatorId = acme.operator.operatorId;
      const pinned = await startAutomationRun(app.deps.temporal, { operatorId, automationId: workflow.id, source: 'manual', input: {}, pinnedVersion: 1 });
      await pinned.handle.result();
      const record = (await acme.wf(`/runs/${pinned.runId}`)).body.data;
      expect(record).toMatchObject({ status: 'completed', workflowVersion: 1 });
      expect(record.nodes.map((node: any) => node.id)).toEqual(['start', 'v1_step']);

      const missing = await startAutomationRun(app.deps.temporal, { operatorId, automationId: workflow.id, source: 'manual', input: {}, pinnedVersion: 5 });
      expect(await missing.handle.result()).toEqual({ kind: 'ignored', reason: 'version 5 not found' });
      const rivalRun = await startAutomationRun(app.deps.temporal, {
        operatorId: rival.operator.operatorId,
        automationId: workflow.id,
        source: 'manual',
        input: {},
        pinnedVersion: 1,
      });
      expect(await rivalRun.handle.result()).toEqual({ kind: 'ignored', reason: 'automation not found' });
    });
  });
});
