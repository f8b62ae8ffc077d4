import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { automationsClient, waitForRuns, type AutomationsClient } from '../helpers/automations';
import { seedRuns } from '../helpers/runsExplorer';

/**
 * Deposit check: a big deposit flags the player (branch `big:true`); a small one calls a supplier that refuses it
 * (branch `big:false`, the run fails at `notify`).
 */
const depositCheck = (providerUrl: string) => ({
  name: 'Deposit check',
  nodes: [
    {
      id: 'start',
      type: 'trigger.manual',
      params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' }, amount: { type: 'number' } }, required: ['playerId', 'amount'] } },
    },
    { id: 'big', type: 'condition', params: { expression: 'trigger.amount > 100' } },
    { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: '{{ trigger.amount }}' } },
    { id: 'notify', type: 'action.http_request', params: { method: 'POST', url: `${providerUrl}/small`, body: { player: '{{ trigger.playerId }}' } } },
  ],
  edges: [
    { from: 'start', to: 'big' },
    { from: 'big', to: 'flag', when: true },
    { from: 'big', to: 'notify', when: false },
  ],
});

const bad = (field: string, message: string) => ({
  status: 400,
  body: { success: false, error: { code: 'VALIDATION_FAILED', message: `Invalid input: ${field}: ${message}`, details: [{ field, message }] } },
});

describe('runs explorer (GET /workflows-api/runs)', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  let provider: TestProvider;
  let deposit: any;
  let welcome: any;
  /** By name: the runs made in beforeAll, newest last. */
  const runs: Record<string, any> = {};

  beforeAll(async () => {
    app = await startTestApp();
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
    provider = await startProvider(() => ({ status: 422, body: { error: 'refused' } }));
    for (const externalId of ['p-1', 'p-2']) {
      const player = await acme.call('/entities', { method: 'POST', body: { externalId, entityType: 'player', data: { country: 'MT' } } });
      expect(player.status).toBe(201);
    }
    deposit = await acme.create(depositCheck(provider.url));
    welcome = await acme.create({
      name: 'Welcome',
      nodes: [
        { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
        { id: 'greet', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'loyalty_tier', value: 'welcome' } },
      ],
      edges: [{ from: 'start', to: 'greet' }],
    });
    const test = async (name: string, body: Record<string, unknown>) => {
      const response = await acme.wf(`/workflows/${deposit.id}/test`, { method: 'POST', body });
      expect(response.status).toBe(200);
      runs[name] = response.body.data;
    };
    await test('bigP1', { playerId: 'p-1', amount: 500 });
    await test('smallP2', { playerId: 'p-2', amount: 5 });
    const updated = await acme.wf(`/workflows/${deposit.id}`, { method: 'PUT', body: { ...depositCheck(provider.url), name: 'Deposit check v2' } });
    expect(updated.body.data.version).toBe(2);
    await test('bigP2v2', { playerId: 'p-2', amount: 900 });
    const event = await acme.call('/entities/p-1/events', {
      method: 'POST',
      body: { eventType: 'transaction', data: { type: 'deposit', amount: 10, currency: 'EUR' } },
    });
    expect(event.status).toBe(201);
    [runs.eventP1] = await waitForRuns(acme, welcome.id, 1);
  });
  afterAll(async () => {
    await provider.close();
    await app.close();
  });

  const ids = (response: { body: any }) => response.body.data.map((run: any) => run.id);

  describe('protection', () => {
    it('needs credentials (401 UNAUTHORIZED); any member of the operator may read it, a Member included', async () => {
      expect(await http(`${app.url}/workflows-api/runs`)).toMatchObject({
        status: 401,
        body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
      });
      expect((await http(`${app.url}/workflows-api/runs`, { token: 'svc_live_nope' })).status).toBe(401);
      const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
      const read = await http(`${app.url}/workflows-api/runs?limit=1`, { token: member.accessToken });
      expect(read.status).toBe(200);
      expect(read.body.count).toBe(4);
    });

    it("keeps operators apart: B lists none of A's runs, A's automation id is 404 WORKFLOW_NOT_FOUND, A's player matches nothing", async () => {
      const mine = await rival.wf('/runs');
      expect(mine).toMatchObject({ status: 200, body: { success: true, data: [], count: 0 } });
      expect(await rival.wf(`/runs?workflowId=${deposit.id}`)).toMatchObject({
        status: 404,
        body: { success: false, error: { code: 'WORKFLOW_NOT_FOUND', message: 'Workflow not found' } },
      });
      expect(await acme.wf('/runs?workflowId=wf_missing')).toMatchObject({ status: 404, body: { error: { code: 'WORKFLOW_NOT_FOUND' } } });
      expect((await rival.wf('/runs?player=p-1')).body).toEqual({ success: true, data: [], count: 0 });
      expect((await rival.wf(`/runs/${runs.bigP1.id}`)).status).toBe(404);
    });
  });

  describe('validation: 400 VALIDATION_FAILED naming the field', () => {
    it.each([
      ['status=done', 'status', 'must be one of running, completed, failed, cancelled'],
      ['source=cron', 'source', 'must be one of manual, webhook, schedule, event, mcp'],
      ['from=yesterday', 'from', 'must be an ISO 8601 date-time with a zone (2026-11-24T00:00:00Z)'],
      ['to=2026-11-24', 'to', 'must be an ISO 8601 date-time with a zone (2026-11-24T00:00:00Z)'],
      ['from=2026-11-24T00:00:00Z&to=2026-11-23T00:00:00Z', 'to', 'must not be before from'],
      ['version=0', 'version', 'must be a whole number from 1 to 2147483647'],
      ['version=two', 'version', 'must be a whole number from 1 to 2147483647'],
      ['branch=big', 'branch', 'must be <conditionNodeId>:true or <conditionNodeId>:false'],
      ['branch=big:maybe', 'branch', 'must be <conditionNodeId>:true or <conditionNodeId>:false'],
      ['player=', 'player', 'must not be empty'],
      ['workflowId=', 'workflowId', 'must not be empty'],
      ['limit=0', 'limit', 'must be a whole number from 1 to 100'],
      ['limit=101', 'limit', 'must be a whole number from 1 to 100'],
      ['offset=-1', 'offset', 'must be a whole number from 0 to 1000000'],
      ['cursor=bm9wZQ', 'cursor', 'is not a cursor this API gave (nextCursor of a previous page)'],
    ])('%s → %s', async (query, field, message) => {
      expect(await acme.wf(`/runs?${query}`)).toMatchObject(bad(field, message));
    });

    it('refuses an unknown filter and a cursor with an offset', async () => {
      expect(await acme.wf('/runs?player_id=p-1')).toMatchObject(bad('query', 'Unrecognized key: "player_id"'));
      const first = await acme.wf('/runs?limit=1');
      expect(await acme.wf(`/runs?cursor=${first.body.nextCursor}&offset=1`)).toMatchObject(bad('offset', 'cannot be combined with cursor'));
    });
  });

  describe('filters', () => {
    it('lists every run of the operator across automations, newest first, as summaries without sealed parts', async () => {
      const all = await acme.wf('/runs');
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(4);
      expect(ids(all)).toEqual([runs.eventP1.id, runs.bigP2v2.id, runs.smallP2.id, runs.bigP1.id]);
      expect(all.body).not.toHaveProperty('nextCursor');
      expect(all.body.data[2]).toEqual({
        id: runs.smallP2.id,
        workflowId: deposit.id,
        workflowName: 'Deposit check v2',
        workflowVersion: 1,
        source: 'manual',
        status: 'failed',
        error: { code: 'HTTP_422', nodeId: 'notify' },
        startedAt: runs.smallP2.startedAt,
        completedAt: runs.smallP2.completedAt,
        durationMs: runs.smallP2.durationMs,
        subjectExternalIds: ['p-2'],
        temporalWorkflowId: runs.smallP2.temporalWorkflowId,
        rerunOf: null,
      });
      expect(all.body.data[0]).toMatchObject({
        workflowId: welcome.id,
        workflowName: 'Welcome',
        source: 'event',
        status: 'completed',
        subjectExternalIds: ['p-1'],
      });
      expect(all.body.data[0]).not.toHaveProperty('error');
      expect(JSON.stringify(all.body)).not.toContain('refused');
    });

    it('status, workflowId, player, source, version', async () => {
      expect(ids(await acme.wf('/runs?status=failed'))).toEqual([runs.smallP2.id]);
      expect(ids(await acme.wf('/runs?status=running'))).toEqual([]);
      expect(ids(await acme.wf(`/runs?workflowId=${deposit.id}`))).toEqual([runs.bigP2v2.id, runs.smallP2.id, runs.bigP1.id]);
      expect(ids(await acme.wf('/runs?player=p-1'))).toEqual([runs.eventP1.id, runs.bigP1.id]);
      expect(ids(await acme.wf('/runs?player=p-404'))).toEqual([]);
      expect(ids(await acme.wf('/runs?source=event'))).toEqual([runs.eventP1.id]);
      expect(ids(await acme.wf(`/runs?workflowId=${deposit.id}&version=2`))).toEqual([runs.bigP2v2.id]);
      const combined = await acme.wf(`/runs?workflowId=${deposit.id}&status=completed&player=p-2`);
      expect(combined.body).toMatchObject({ count: 1, data: [{ id: runs.bigP2v2.id }] });
    });

    it('from (inclusive) and to (exclusive) on the start time', async () => {
      const at = (run: any) => encodeURIComponent(run.startedAt);
      expect(ids(await acme.wf(`/runs?from=${at(runs.smallP2)}`))).toEqual([runs.eventP1.id, runs.bigP2v2.id, runs.smallP2.id]);
      expect(ids(await acme.wf(`/runs?to=${at(runs.bigP2v2)}`))).toEqual([runs.smallP2.id, runs.bigP1.id]);
      expect(ids(await acme.wf(`/runs?from=${at(runs.smallP2)}&to=${at(runs.bigP2v2)}`))).toEqual([runs.smallP2.id]);
      expect(ids(await acme.wf('/runs?from=2999-01-01T00:00:00%2B02:00'))).toEqual([]);
    });

    it('branch: the branch a condition took, from the stored node results', async () => {
      expect(ids(await acme.wf('/runs?branch=big:true'))).toEqual([runs.bigP2v2.id, runs.bigP1.id]);
      expect(ids(await acme.wf('/runs?branch=big:false'))).toEqual([runs.smallP2.id]);
      expect(ids(await acme.wf('/runs?branch=greet:true'))).toEqual([]);
      expect(ids(await acme.wf(`/runs?branch=big:false&workflowId=${welcome.id}`))).toEqual([]);
    });
  });

  describe('paging', () => {
    it('limit and offset, with the total', async () => {
      const all = ids(await acme.wf('/runs'));
      const first = await acme.wf('/runs?limit=3');
      expect(first.body.count).toBe(4);
      expect(ids(first)).toEqual(all.slice(0, 3));
      expect(typeof first.body.nextCursor).toBe('string');
      const second = await acme.wf('/runs?limit=3&offset=3');
      expect(second.body).toMatchObject({ count: 4 });
      expect(ids(second)).toEqual(all.slice(3));
      expect(second.body).not.toHaveProperty('nextCursor');
    });

    it('cursor: walks every run once, and a run started meanwhile does not shift the pages', async () => {
      const all = ids(await acme.wf('/runs'));
      const first = await acme.wf(`/runs?limit=2&workflowId=${deposit.id}`);
      const fresh = await acme.wf(`/workflows/${deposit.id}/test`, { method: 'POST', body: { playerId: 'p-1', amount: 101 } });
      expect(fresh.status).toBe(200);
      const second = await acme.wf(`/runs?limit=2&workflowId=${deposit.id}&cursor=${first.body.nextCursor}`);
      expect([...ids(first), ...ids(second)]).toEqual(all.filter((id: string) => id !== runs.eventP1.id));
      expect(second.body.count).toBe(4);
      expect(second.body).not.toHaveProperty('nextCursor');
    });
  });

  describe('a deleted workflow', () => {
    it('keeps its runs listed under its name, and its id still filters', async () => {
      const other = await acme.create({ ...depositCheck(provider.url), name: 'Short-lived' });
      const run = await acme.wf(`/workflows/${other.id}/test`, { method: 'POST', body: { playerId: 'p-2', amount: 900 } });
      expect((await acme.wf(`/workflows/${other.id}`, { method: 'DELETE' })).status).toBe(200);
      const listed = await acme.wf(`/runs?workflowId=${other.id}`);
      expect(listed.body).toMatchObject({ count: 1, data: [{ id: run.body.data.id, workflowName: 'Short-lived' }] });
    });
  });

  describe("each step's input beside its output", () => {
    it('records the rendered params (an action) and the expression (a condition) with the branch, sealed at rest', async () => {
      const run = (await acme.wf(`/runs/${runs.bigP1.id}`)).body.data;
      expect(run.nodes).toEqual([
        { id: 'start', status: 'completed', output: { playerId: 'p-1', amount: 500 }, durationMs: 0 },
        {
          id: 'big',
          status: 'completed',
          input: { expression: 'trigger.amount > 100' },
          output: { result: true },
          branch: true,
          durationMs: expect.any(Number),
        },
        {
          id: 'flag',
          status: 'completed',
          input: { externalId: 'p-1', key: 'risk_score', value: 500 },
          output: { externalId: 'p-1', key: 'risk_score', value: 500 },
          durationMs: expect.any(Number),
        },
        { id: 'notify', status: 'skipped', durationMs: 0 },
      ]);
      const failed = (await acme.wf(`/runs/${runs.smallP2.id}`)).body.data;
      expect(failed.nodes.find((node: any) => node.id === 'notify')).toMatchObject({
        status: 'failed',
        input: { method: 'POST', url: `${provider.url}/small`, body: { player: 'p-2' } },
        error: { code: 'HTTP_422' },
      });
      const raw = await app.deps.db('automation_runs').where({ id: runs.smallP2.id }).first();
      expect(JSON.stringify(raw)).not.toContain('/small');
      expect(raw.nodes).toEqual([
        { id: 'start', status: 'completed', durationMs: 0 },
        { id: 'big', status: 'completed', branch: false, durationMs: expect.any(Number) },
        { id: 'flag', status: 'skipped', durationMs: 0 },
        { id: 'notify', status: 'failed', durationMs: expect.any(Number) },
      ]);
    });
  });

  describe('at scale', () => {
    it('pages, filters by player and branch, and walks by cursor over 10,000 runs in milliseconds', async () => {
      const owner = await automationsClient(app);
      const automation = await owner.create(depositCheck(provider.url));
      await seedRuns(app.deps.db, owner.operator.operatorId, automation.id, 10_000);
      const timed = async (path: string) => {
        const started = performance.now();
        const response = await owner.wf(path);
        expect(response.status).toBe(200);
        return { response, ms: performance.now() - started };
      };
      const first = await timed('/runs?limit=50');
      expect(first.response.body.count).toBe(10_000);
      const deep = await timed('/runs?limit=50&offset=9900');
      const byPlayer = await timed('/runs?player=p-77');
      expect(byPlayer.response.body.count).toBe(100);
      const byBranch = await timed('/runs?branch=big:false&status=failed');
      expect(byBranch.response.body.count).toBe(1_000);
      const rareBranch = await timed('/runs?branch=big:true&player=p-3');
      expect(rareBranch.response.body.data.every((run: any) => run.subjectExternalIds.includes('p-3'))).toBe(true);
      let cursor = first.response.body.nextCursor;
      for (let page = 0; page < 3; page += 1) cursor = (await owner.wf(`/runs?limit=50&cursor=${cursor}`)).body.nextCursor;
      const keyset = await timed(`/runs?limit=50&cursor=${cursor}`);
      const timings = { first: first.ms, deepOffset: deep.ms, byPlayer: byPlayer.ms, byBranch: byBranch.ms, rareBranch: rareBranch.ms, cursor: keyset.ms };
      console.info(`runs explorer over 10,000 runs (ms, HTTP round trip): ${JSON.stringify(timings, (_k, v) => (typeof v === 'number' ? Math.round(v) : v))}`);
      for (const ms of Object.values(timings)) expect(ms).toBeLessThan(1_000);
    });
  });
});
