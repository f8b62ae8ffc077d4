import { execFile } from 'node:child_process';
import { WorkflowNotFoundError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { prefixedId } from '../../core/ids';
import { insertRun } from '../../db/queries/automationRuns';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { beginManualRun, chain, automationsClient, type AutomationsClient } from '../helpers/automations';

const exec = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const month = () => new Date().toISOString().slice(0, 7);

/** `npm run cli -- quota …` as a real child process; resolves with the one JSON line it prints. */
async function quotaCli(args: string[]): Promise<any> {
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'processes/cli.ts', 'quota', ...args], { cwd: root, env: process.env });
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

async function testRun(client: AutomationsClient, workflowId: string, body: Record<string, unknown> = {}): Promise<any> {
  const response = await client.wf(`/workflows/${workflowId}/test`, { method: 'POST', body });
  if (response.status !== 200) throw new Error(`test run: ${response.status} ${response.text}`);
  return response.body.data;
}

let app: TestApp;
let provider: TestProvider;
let defaults: { actions: number; aiActions: number };
beforeAll(async () => {
  app = await startTestApp();
  provider = await startProvider(() => ({ status: 200, body: { ok: true } }));
  defaults = { actions: app.deps.config.QUOTA_ACTIONS_PER_MONTH, aiActions: app.deps.config.QUOTA_AI_ACTIONS_PER_MONTH };
});
afterAll(async () => {
  await provider.close();
  await app.close();
});

/** A manual workflow of `count` HTTP calls to the loopback provider, each at `/<tag>/<n>`. */
const httpChain = (client: AutomationsClient, tag: string, count = 1) =>
  client.create(
    chain(
      `Calls ${tag}`,
      Array.from({ length: count }, (_, n) => ({
        id: `call${n}`,
        type: 'action.http_request',
        params: { method: 'POST', url: `${provider.url}/${tag}/${n}` },
      })),
    ),
  );
const calls = (tag: string) => provider.requests.filter((request) => request.path.startsWith(`/${tag}/`)).length;
const usage = async (client: AutomationsClient) => (await client.wf('/usage')).body.data;

describe('npm run cli -- quota', () => {
  it('reports, sets and clears per-operator limits, one JSON line each; a flag left out keeps its limit', async () => {
    const client = await automationsClient(app);
    const operatorId = client.operator.operatorId;
    const counter = (limit: number, override: number | null, used = 0) => ({ used, limit, remaining: limit - used, override });

    expect(await quotaCli(['--operator', operatorId])).toEqual({
      operatorId,
      month: month(),
      actions: counter(defaults.actions, null),
      aiActions: counter(defaults.aiActions, null),
    });
    expect(await quotaCli(['--operator', operatorId, '--actions', '25', '--ai-actions', '3'])).toEqual({
      operatorId,
      month: month(),
      actions: counter(25, 25),
      aiActions: counter(3, 3),
    });
    expect(await quotaCli(['--operator', operatorId, '--ai-actions', '0'])).toEqual({
      operatorId,
      month: month(),
      actions: counter(25, 25),
      aiActions: counter(0, 0),
    });
    expect(await usage(client)).toEqual({ month: month(), actions: { used: 0, limit: 25, remaining: 25 }, aiActions: { used: 0, limit: 0, remaining: 0 } });

    expect(await quotaCli(['--operator', operatorId, '--actions', 'default'])).toEqual({
      operatorId,
      month: month(),
      actions: counter(defaults.actions, null),
      aiActions: counter(0, 0),
    });
    expect((await usage(client)).actions).toEqual({ used: 0, limit: defaults.actions, remaining: defaults.actions });
  });

  it('exits 1 with a clear message for an unknown operator or a bad limit, changing nothing', async () => {
    const cli = (args: string[]) => exec(process.execPath, ['--import', 'tsx', 'processes/cli.ts', 'quota', ...args], { cwd: root, env: process.env });
    const unknown = randomUUID();
    await expect(cli(['--operator', unknown, '--actions', '5'])).rejects.toMatchObject({ code: 1, stderr: `operator ${unknown} not found\n` });
    await expect(cli(['--actions', '5'])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--operator') });
    const client = await automationsClient(app);
    await expect(cli(['--operator', client.operator.operatorId, '--actions=-5'])).rejects.toMatchObject({
      code: 1,
      stderr: '--actions must be a whole number ≥ 0 or "default"\n',
    });
    await expect(cli(['--operator', client.operator.operatorId, '--ai-actions', 'lots'])).rejects.toMatchObject({
      code: 1,
      stderr: '--ai-actions must be a whole number ≥ 0 or "default"\n',
    });
    expect((await usage(client)).actions.limit).toBe(defaults.actions);
  });
});

describe('quota enforcement', () => {
  it('GET /usage needs an API key or session', async () => {
    const response = await http(`${app.url}/workflows-api/usage`);
    expect(response.status).toBe(401);
  });

  it('once the month is used up, a run fails with QUOTA_EXCEEDED before any node (no call made); the worst case must fit', async () => {
    const client = await automationsClient(app);
    await quotaCli(['--operator', client.operator.operatorId, '--actions', '3']);
    const one = await httpChain(client, 'one');
    const two = await httpChain(client, 'two', 2);

    for (let n = 0; n < 2; n += 1) expect((await testRun(client, one.id)).status).toBe('completed');
    expect(await usage(client)).toEqual({
      month: month(),
      actions: { used: 2, limit: 3, remaining: 1 },
      aiActions: { used: 0, limit: defaults.aiActions, remaining: defaults.aiActions },
    });

    const refused = await testRun(client, two.id);
    expect(refused).toEqual({
      id: expect.stringMatching(/^run_/),
      workflowId: two.id,
      workflowVersion: 1,
      source: 'manual',
      rerunOf: null,
      rerunFromNodeId: null,
      replayId: null,
      status: 'failed',
      temporalWorkflowId: expect.stringMatching(/^automation-manual-run_/),
      input: {},
      output: null,
      nodes: [],
      error: { code: 'QUOTA_EXCEEDED', message: `Monthly Actions quota exceeded (limits: 3 Actions, ${defaults.aiActions} AI Actions)` },
      startedAt: expect.any(String),
      completedAt: expect.any(String),
      durationMs: expect.any(Number),
    });
    expect(calls('two')).toBe(0);
    expect((await client.wf(`/runs/${refused.id}`)).body.data).toEqual(refused);
    // Refused as the API began it: no workflow was started for it.
    await expect(app.deps.temporal.client.workflow.getHandle(refused.temporalWorkflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    expect((await testRun(client, one.id)).status).toBe('completed');
    const last = await testRun(client, one.id);
    expect(last).toMatchObject({ status: 'failed', nodes: [], error: { code: 'QUOTA_EXCEEDED' } });
    expect(calls('one')).toBe(3);
    expect((await usage(client)).actions).toEqual({ used: 3, limit: 3, remaining: 0 });

    const other = await automationsClient(app);
    expect((await testRun(other, (await httpChain(other, 'other')).id)).status).toBe('completed');

    await quotaCli(['--operator', client.operator.operatorId, '--actions', '5']);
    expect((await testRun(client, two.id)).status).toBe('completed');
    expect(calls('two')).toBe(2);
    expect((await usage(client)).actions).toEqual({ used: 5, limit: 5, remaining: 0 });
  });

  it('concurrent runs never overshoot the limit', async () => {
    const client = await automationsClient(app);
    await quotaCli(['--operator', client.operator.operatorId, '--actions', '5']);
    const workflow = await httpChain(client, 'burst');
    const runs = await Promise.all(Array.from({ length: 9 }, () => testRun(client, workflow.id)));
    expect(runs.filter((run) => run.status === 'completed')).toHaveLength(5);
    expect(runs.filter((run) => run.error?.code === 'QUOTA_EXCEEDED' && run.nodes.length === 0)).toHaveLength(4);
    expect(calls('burst')).toBe(5);
    expect((await usage(client)).actions).toEqual({ used: 5, limit: 5, remaining: 0 });
  });

  it('AI Actions are limited separately: an AI workflow is refused while others still run', async () => {
    const client = await automationsClient(app);
    await quotaCli(['--operator', client.operator.operatorId, '--ai-actions', '0']);
    const ai = await client.create(chain('Ask AI', [{ id: 'ask', type: 'action.ai', params: { prompt: 'hello' } }]));
    const refused = await testRun(client, ai.id);
    expect(refused).toMatchObject({
      status: 'failed',
      nodes: [],
      error: { code: 'QUOTA_EXCEEDED', message: `Monthly Actions or AI Actions quota exceeded (limits: ${defaults.actions} Actions, 0 AI Actions)` },
    });
    expect((await testRun(client, (await httpChain(client, 'plain')).id)).status).toBe('completed');
    expect(await usage(client)).toEqual({
      month: month(),
      actions: { used: 1, limit: defaults.actions, remaining: defaults.actions - 1 },
      aiActions: { used: 0, limit: 0, remaining: 0 },
    });
  });

  it('reservations a run does not use are given back: a branch not taken, nodes after a failure', async () => {
    const client = await automationsClient(app);
    await quotaCli(['--operator', client.operator.operatorId, '--actions', '4', '--ai-actions', '1']);
    const branching = await client.create({
      name: 'Maybe ask AI',
      nodes: [
        { id: 'start', type: 'trigger.manual', params: {} },
        { id: 'useAi', type: 'condition', params: { expression: 'trigger.useAi = true' } },
        { id: 'ask', type: 'action.ai', params: { prompt: 'Assess {{ trigger.playerId }}' } },
        { id: 'log', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/branch/log` } },
        { id: 'after', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/branch/after` } },
      ],
      edges: [
        { from: 'start', to: 'useAi' },
        { from: 'useAi', to: 'ask', when: true },
        { from: 'ask', to: 'after' },
        { from: 'useAi', to: 'log', when: false },
      ],
    });
    // Each run reserves its worst case, 3 Actions (ask, after, log) and 1 AI Action; the false branch uses 1 Action.
    // Without the release the second run could not reserve (3 + 3 > 4).
    for (let n = 0; n < 2; n += 1) {
      const run = await testRun(client, branching.id, { useAi: false, playerId: 'p-1' });
      expect(run.nodes.map((node: any) => [node.id, node.status])).toEqual([
        ['start', 'completed'],
        ['useAi', 'completed'],
        ['ask', 'skipped'],
        ['log', 'completed'],
        ['after', 'skipped'],
      ]);
    }
    expect(await usage(client)).toEqual({ month: month(), actions: { used: 2, limit: 4, remaining: 2 }, aiActions: { used: 0, limit: 1, remaining: 1 } });
    expect((await testRun(client, branching.id, { useAi: false })).error).toEqual({
      code: 'QUOTA_EXCEEDED',
      message: 'Monthly Actions or AI Actions quota exceeded (limits: 4 Actions, 1 AI Actions)',
    });

    await quotaCli(['--operator', client.operator.operatorId, '--actions', '10']);
    const failing = await client.create(
      chain('Fails first', [
        { id: 'gone', type: 'action.http_request', params: { method: 'GET', url: `${provider.url}/missing` } },
        { id: 'never1', type: 'action.http_request', params: { method: 'GET', url: `${provider.url}/never` } },
        { id: 'never2', type: 'action.http_request', params: { method: 'GET', url: `${provider.url}/never` } },
      ]),
    );
    provider.handle((request) => (request.path === '/missing' ? { status: 404, body: { error: 'gone' } } : { status: 200, body: { ok: true } }));
    try {
      const run = await testRun(client, failing.id);
      expect(run).toMatchObject({ status: 'failed', error: { code: 'HTTP_404', nodeId: 'gone' } });
      expect(run.nodes.map((node: any) => node.status)).toEqual(['completed', 'failed', 'skipped', 'skipped']);
    } finally {
      provider.handle(() => ({ status: 200, body: { ok: true } }));
    }
    expect((await usage(client)).actions).toEqual({ used: 3, limit: 10, remaining: 7 });
  });
});

describe("a run's begin: one statement that reserves before it inserts", () => {
  const begin = (client: AutomationsClient, automationId: string, runId: string) => beginManualRun(app, client.operator.operatorId, automationId, runId);
  const stored = (runId: string) => app.deps.db('automation_runs').where({ id: runId }).first();

  it('begun twice at once (a retried local activity, a lost answer), a run is recorded and reserved once', async () => {
    const client = await automationsClient(app);
    const workflow = await httpChain(client, 'twice', 2);
    const runId = prefixedId('run');
    const [first, second] = await Promise.all([begin(client, workflow.id, runId), begin(client, workflow.id, runId)]);
    for (const begun of [first, second]) expect(begun).toMatchObject({ kind: 'started', runId, reserved: { actions: 2, aiActions: 0 } });
    expect(await begin(client, workflow.id, runId)).toMatchObject({ kind: 'started', runId, reserved: { actions: 2, aiActions: 0 } });
    expect((await usage(client)).actions.used).toBe(2);
    expect(
      await app.deps
        .db('automation_runs')
        .where({ temporal_workflow_id: `automation-manual-${runId}` })
        .count({ n: '*' }),
    ).toEqual([{ n: '1' }]);
    expect(await stored(runId)).toMatchObject({ status: 'running', reserved_actions: 2 });
  });

  it('a run the quota cannot cover is failed by the insert itself, with nothing reserved: begun again, it stays refused', async () => {
    const client = await automationsClient(app);
    await quotaCli(['--operator', client.operator.operatorId, '--actions', '1']);
    const workflow = await httpChain(client, 'over', 2);
    const runId = prefixedId('run');
    // The statement alone: a begin that died before it could put the limits into the message.
    const { row, created } = await insertRun(
      app.deps.db,
      app.deps.keyring,
      {
        id: runId,
        operatorId: client.operator.operatorId,
        automationId: workflow.id,
        automationVersion: 1,
        source: 'manual',
        triggerNodeId: 'start',
        temporalWorkflowId: `automation-manual-${runId}`,
        input: {},
        usageMonth: month(),
        reserved: { actions: 2, aiActions: 0 },
      },
      { defaults, exceeded: { code: 'QUOTA_EXCEEDED', message: 'Monthly Actions quota exceeded' } },
    );
    expect(created).toBe(true);
    expect(row).toMatchObject({ status: 'failed', reserved_actions: 0, reserved_ai_actions: 0, error: { code: 'QUOTA_EXCEEDED' } });
    expect((await client.wf(`/runs/${runId}`)).body.data).toMatchObject({
      status: 'failed',
      nodes: [],
      error: { code: 'QUOTA_EXCEEDED', message: 'Monthly Actions quota exceeded' },
    });
    expect((await usage(client)).actions.used).toBe(0);

    expect(await begin(client, workflow.id, runId)).toEqual({ kind: 'rejected', runId, source: 'manual' });
    expect(await stored(runId)).toMatchObject({ status: 'failed', reserved_actions: 0 });
    expect((await usage(client)).actions.used).toBe(0);

    const fresh = prefixedId('run');
    expect(await begin(client, workflow.id, fresh)).toEqual({ kind: 'rejected', runId: fresh, source: 'manual' });
    expect((await client.wf(`/runs/${fresh}`)).body.data.error).toEqual({
      code: 'QUOTA_EXCEEDED',
      message: `Monthly Actions quota exceeded (limits: 1 Actions, ${defaults.aiActions} AI Actions)`,
    });
  });
});
