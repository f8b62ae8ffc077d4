import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, type AutomationsClient } from '../helpers/automations';
import { http } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';
import { startProvider, type TestProvider } from '../helpers/providerServer';
import { startRunReplay } from '../../temporal/automationReruns';
import type { runReplayWorkflow } from '../../workflows/runReplay';

/** Polls `GET /replays/:replayId` until the job has ended. */
async function replayEnded(client: AutomationsClient, replayId: string, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.wf(`/replays/${replayId}`);
    if (response.status === 200 && response.body.data.status !== 'running') return response.body.data;
    if (Date.now() > deadline) throw new Error(`replay ${replayId} did not end: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs `count` test runs of the workflow, `parallel` at a time, and waits until each has ended. */
async function runMany(app: TestApp, client: AutomationsClient, workflowId: string, count: number, parallel = 20): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += parallel) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(parallel, count - i) }, (_, k) => client.wf(`/workflows/${workflowId}/test`, { method: 'POST', body: { n: i + k } })),
    );
    ids.push(...batch.map((response) => response.body.data.id as string));
  }
  const deadline = Date.now() + 60_000;
  const ended = async () =>
    Number((await app.deps.db('automation_runs').whereIn('id', ids).whereNot({ status: 'running' }).count<{ count: string }[]>({ count: '*' }))[0]!.count);
  while ((await ended()) < ids.length) {
    if (Date.now() > deadline) throw new Error('the runs did not end');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return ids;
}

describe('bulk replay of failed runs (POST /workflows-api/workflows/:id/replays)', () => {
  let app: TestApp;
  let acme: AutomationsClient;
  let rival: AutomationsClient;
  let supplier: TestProvider;
  let supplierUp = false;
  const rangeStart = new Date(Date.now() - 60_000).toISOString();

  beforeAll(async () => {
    app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '300' });
    [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
    // A supplier that refuses (400, so the run fails at once) until it is fixed.
    supplier = await startProvider(() => (supplierUp ? { status: 200, body: { ok: true } } : { status: 400, body: { error: 'not yet' } }));
  });
  afterAll(async () => {
    await supplier.close();
    await app.close();
  });

  const failing = (name: string) =>
    acme.create(
      chain(name, [{ id: 'call', type: 'action.http_request', params: { method: 'POST', url: `${supplier.url}/work`, body: { n: '{{ trigger.n }}' } } }]),
    );

  it('needs credentials (401) and a manager to start or cancel one (403 FORBIDDEN for a Member)', async () => {
    const workflow = await failing('Protected');
    expect(await http(`${app.url}/workflows-api/workflows/${workflow.id}/replays`, { method: 'POST', body: {} })).toMatchObject({
      status: 401,
      body: { success: false, error: { code: 'UNAUTHORIZED', message: 'Authorization header is required' } },
    });
    const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
    const body = { from: rangeStart, to: new Date().toISOString() };
    for (const path of [`/workflows/${workflow.id}/replays`, '/replays/rpl_x/cancel']) {
      expect(await http(`${app.url}/workflows-api${path}`, { method: 'POST', token: member.accessToken, body })).toMatchObject({
        status: 403,
        body: { success: false, error: { code: 'FORBIDDEN', message: 'Only the Owner or an Admin can manage workflows' } },
      });
    }
    expect((await http(`${app.url}/workflows-api/replays/rpl_x`, { token: member.accessToken })).status).toBe(404);
  });

  it('replays 200 failed runs once each, with progress, and a duplicate or restarted job adds none', async () => {
    const workflow = await failing('Outage');
    const originals = await runMany(app, acme, workflow.id, 200);
    const failed = await app.deps.db('automation_runs').whereIn('id', originals).where({ status: 'failed' });
    expect(failed).toHaveLength(200);
    expect(failed[0].error).toEqual({ code: 'HTTP_400', nodeId: 'call' });
    supplierUp = true;
    const hitsBefore = supplier.requests.length;

    const created = await acme.wf(`/workflows/${workflow.id}/replays`, {
      method: 'POST',
      body: { from: rangeStart, to: new Date(Date.now() + 60_000).toISOString(), ratePerSecond: 50 },
    });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^rpl_/),
        workflowId: workflow.id,
        status: 'running',
        from: new Date(rangeStart).toISOString(),
        to: expect.any(String),
        version: 'run',
        total: 200,
        started: 0,
        succeeded: 0,
        failed: 0,
        created_at: expect.any(String),
        completed_at: null,
        errors: [],
      },
    });
    const replayId = created.body.data.id;
    const operatorId = acme.operator.operatorId;

    // One running replay per workflow; a second start of the same job is refused by Temporal and changes nothing.
    expect(await acme.wf(`/workflows/${workflow.id}/replays`, { method: 'POST', body: { from: rangeStart, to: new Date().toISOString() } })).toMatchObject({
      status: 409,
      body: {
        success: false,
        error: {
          code: 'REPLAY_ALREADY_RUNNING',
          message: `This workflow already has a running replay (${replayId}): wait for it or cancel it`,
          details: { replayId },
        },
      },
    });
    expect(await startRunReplay(app.deps.temporal, { operatorId, replayId })).toBe('already_running');

    const seen = new Set<number>();
    const deadline = Date.now() + 90_000;
    let replay: any;
    for (;;) {
      replay = (await acme.wf(`/replays/${replayId}`)).body.data;
      seen.add(replay.started);
      if (replay.status !== 'running') break;
      if (Date.now() > deadline) throw new Error(`replay did not end: ${JSON.stringify(replay)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // A rerun that did not complete shows why before the counts do.
    const notCompleted = await app.deps.db('automation_runs').where({ operator_id: operatorId, replay_id: replayId }).whereNot({ status: 'completed' });
    expect(notCompleted.map((run) => ({ rerunOf: run.rerun_of, status: run.status, error: run.error }))).toEqual([]);
    expect(replay).toMatchObject({ status: 'completed', total: 200, started: 200, succeeded: 200, failed: 0, completed_at: expect.any(String) });
    expect([...seen].some((started) => started > 0 && started < 200)).toBe(true);

    const reruns = await app.deps.db('automation_runs').where({ operator_id: operatorId, replay_id: replayId });
    expect(reruns).toHaveLength(200);
    expect(new Set(reruns.map((run) => run.rerun_of))).toEqual(new Set(originals));
    expect(reruns.every((run) => run.status === 'completed' && run.rerun_from_node_id === 'call' && run.automation_version === 1)).toBe(true);
    expect(reruns.every((run) => run.temporal_workflow_id === `automation-replay-${replayId}-${run.rerun_of}`)).toBe(true);
    expect(supplier.requests.length - hitsBefore).toBe(200);
    // Each rerun had its own original's payload.
    expect(new Set(supplier.requests.slice(hitsBefore).map((request) => request.json.n)).size).toBe(200);

    // A restarted job (its row running again, its workflow started anew) pages all 200 again and starts none of them twice.
    await app.deps.db('run_replays').where({ id: replayId }).update({ status: 'running', completed_at: null });
    expect(await startRunReplay(app.deps.temporal, { operatorId, replayId })).toBe('started');
    const again = await app.deps.temporal.client.workflow.getHandle<typeof runReplayWorkflow>(replayId).result();
    expect(again).toEqual({ status: 'completed', started: 200 });
    expect(await app.deps.db('automation_runs').where({ operator_id: operatorId, replay_id: replayId })).toHaveLength(200);
    expect(supplier.requests.length - hitsBefore).toBe(200);
    expect((await acme.wf(`/replays/${replayId}`)).body.data).toMatchObject({ status: 'completed', started: 200, succeeded: 200, failed: 0 });

    // Ended: cancelling is refused.
    expect(await acme.wf(`/replays/${replayId}/cancel`, { method: 'POST' })).toMatchObject({
      status: 409,
      body: { success: false, error: { code: 'REPLAY_NOT_RUNNING', message: 'The replay has already ended (completed)' } },
    });
  }, 180_000);

  it('cancels a running replay: no further rerun starts', async () => {
    supplierUp = false;
    const workflow = await failing('Slow replay');
    await runMany(app, acme, workflow.id, 6);
    const created = await acme.wf(`/workflows/${workflow.id}/replays`, {
      method: 'POST',
      body: { from: rangeStart, to: new Date(Date.now() + 60_000).toISOString(), ratePerSecond: 1, version: 'current' },
    });
    expect(created.body.data).toMatchObject({ total: 6, version: 'current' });
    const cancelled = await acme.wf(`/replays/${created.body.data.id}/cancel`, { method: 'POST' });
    expect(cancelled).toMatchObject({ status: 202, body: { success: true, data: { id: created.body.data.id, status: 'cancelled' } } });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const reruns = await app.deps.db('automation_runs').where({ replay_id: created.body.data.id });
    expect(reruns.length).toBeLessThan(6);
    const row = await app.deps.db('run_replays').where({ id: created.body.data.id }).first();
    expect(row).toMatchObject({ status: 'cancelled', operator_id: acme.operator.operatorId, automation_id: workflow.id });
  });

  it('refuses an empty or inverted range and unknown fields (400 naming the field)', async () => {
    const workflow = await failing('Ranges');
    const now = new Date().toISOString();
    expect(await acme.wf(`/workflows/${workflow.id}/replays`, { method: 'POST', body: { from: now, to: now } })).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: { code: 'VALIDATION_FAILED', message: 'Invalid input: to must be after from', details: [{ field: 'to', message: 'must be after from' }] },
      },
    });
    const badDate = await acme.wf(`/workflows/${workflow.id}/replays`, { method: 'POST', body: { from: 'yesterday', to: now } });
    expect(badDate.status).toBe(400);
    expect(badDate.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'from' })] });
    const badRate = await acme.wf(`/workflows/${workflow.id}/replays`, { method: 'POST', body: { from: rangeStart, to: now, ratePerSecond: 51 } });
    expect(badRate.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'ratePerSecond' })] });
    expect(await app.deps.db('run_replays').where({ automation_id: workflow.id })).toHaveLength(0);
  });

  it("keeps operators apart: B cannot start, read or cancel A's replays (404)", async () => {
    const workflow = await failing('Private replay');
    const created = await acme.wf(`/workflows/${workflow.id}/replays`, { method: 'POST', body: { from: rangeStart, to: new Date().toISOString() } });
    expect(created.status).toBe(202);
    const replayId = created.body.data.id;
    expect(await rival.wf(`/workflows/${workflow.id}/replays`, { method: 'POST', body: { from: rangeStart, to: new Date().toISOString() } })).toMatchObject({
      status: 404,
      body: { success: false, error: { code: 'WORKFLOW_NOT_FOUND', message: 'Workflow not found' } },
    });
    const notFound = { success: false, error: { code: 'REPLAY_NOT_FOUND', message: 'Replay not found' } };
    expect(await rival.wf(`/replays/${replayId}`)).toMatchObject({ status: 404, body: notFound });
    expect(await rival.wf(`/replays/${replayId}/cancel`, { method: 'POST' })).toMatchObject({ status: 404, body: notFound });
    expect(await acme.wf('/replays/rpl_missing')).toMatchObject({ status: 404, body: notFound });
    expect(await replayEnded(acme, replayId)).toMatchObject({ status: 'completed', total: 0, started: 0 });
  });
});
