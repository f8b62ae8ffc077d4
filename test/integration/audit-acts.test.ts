import { startTestApp, type TestApp } from '../helpers/app';
import { automationsClient, chain, type AutomationsClient } from '../helpers/automations';
import { http, type HttpResult } from '../helpers/http';
import { addMemberAndSignIn } from '../helpers/members';
import { ownerMemberId, teamUrl } from '../helpers/team';

/**
 * The acts the audit trail records beside changes (docs/compliance.md "Audit trail"): a test run, a rerun, a replay
 * started and cancelled, an evidence export — each once, naming its actor, with ids and counts but no payload — and
 * the listing names each target (a workflow's name, a run's workflow, a member, a key) beside its id.
 */
let app: TestApp;
let acme: AutomationsClient;
let rival: AutomationsClient;
let ownerId: string;
let keyId: string;

const audit = (client: AutomationsClient, query = '') => http(teamUrl(app, `/operators/me/audit-events${query}`), { token: client.operator.accessToken });
const asOwner = (path: string, options: { method?: string; body?: unknown } = {}) =>
  http(`${app.url}/workflows-api${path}`, { ...options, token: acme.operator.accessToken });

/** A test run answers 200 once it ended within WORKFLOW_TEST_WAIT_MS, else 202 with the running run. */
function runOf(response: HttpResult): any {
  if (response.status !== 200 && response.status !== 202) throw new Error(`expected 200 or 202, got ${response.status}: ${response.text}`);
  return response.body.data;
}

function ok(response: HttpResult, status = 200): any {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text}`);
  return response.body?.data;
}

async function ended(runId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const row = await app.deps.db('automation_runs').where({ id: runId }).first();
    if (row && row.status !== 'running') return;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

beforeAll(async () => {
  app = await startTestApp({ WORKFLOW_TEST_WAIT_MS: '300' });
  [acme, rival] = await Promise.all([automationsClient(app), automationsClient(app)]);
  ownerId = await ownerMemberId(app.deps.db, acme.operator.operatorId);
  const key = await app.deps.db('api_keys').where({ operator_id: acme.operator.operatorId }).first('id');
  keyId = key.id;
});
afterAll(() => app.close());

describe('acts on the audit trail, with names', () => {
  let workflowId: string;
  let testRunId: string;
  let rerunId: string;
  let replayId: string;
  const started = new Date(Date.now() - 60_000).toISOString();

  it('a test run by the Owner: automation.test_run_started on the workflow, named, the run id in the summary', async () => {
    const workflow = await acme.create({
      ...chain('Welcome journey', [{ id: 'note', type: 'action.note', params: { text: 'hello {{ trigger.playerId }}' } }], {
        id: 'start',
        type: 'trigger.manual',
        params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] } },
      }),
    });
    workflowId = workflow.id;
    // Without the required field the run fails at once (MISSING_TRIGGER_FIELD): a failed run to rerun and replay.
    const run = runOf(await asOwner(`/workflows/${workflowId}/test`, { method: 'POST', body: { secret: 'not-in-the-trail-4411' } }));
    testRunId = run.id;
    await ended(testRunId);
    const [event, ...others] = ok(await audit(acme, '?action=automation.test_run_started')).events;
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      actor: { kind: 'member', id: ownerId },
      action: 'automation.test_run_started',
      targetType: 'automation',
      targetId: workflowId,
      targetName: 'Welcome journey',
      targetDeleted: false,
      beforeHash: null,
      afterHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      changedFields: [],
      summary: `Test run ${testRunId} on version 1`,
    });
  });

  it('a rerun by a key: run.rerun_started on the new run, named by its workflow, naming the original and the step', async () => {
    const rerun = ok(await acme.wf(`/runs/${testRunId}/rerun`, { method: 'POST', body: { fromNodeId: 'note' } }), 202);
    rerunId = rerun.runId;
    await ended(rerunId);
    const { events } = ok(await audit(acme, '?action=run.rerun_started'));
    expect(events).toEqual([
      expect.objectContaining({
        actor: { kind: 'api_key', id: keyId },
        targetType: 'run',
        targetId: rerunId,
        targetName: 'Welcome journey',
        summary: `Rerun of ${testRunId} from step note on version 1`,
      }),
    ]);
  });

  it('a replay started and cancelled: automation.replay_started with its count, automation.replay_cancelled', async () => {
    const body = { from: started, to: new Date(Date.now() + 60_000).toISOString(), ratePerSecond: 1 };
    const replay = ok(await acme.wf(`/workflows/${workflowId}/replays`, { method: 'POST', body }), 202);
    replayId = replay.id;
    const cancel = await acme.wf(`/replays/${replayId}/cancel`, { method: 'POST' });
    const { events } = ok(await audit(acme, `?targetType=automation&targetId=${workflowId}`));
    const replayEvents = events.filter((event: any) => event.action.startsWith('automation.replay_'));
    const startedEvent = replayEvents.find((event: any) => event.action === 'automation.replay_started');
    expect(startedEvent).toMatchObject({
      actor: { kind: 'api_key', id: keyId },
      targetName: 'Welcome journey',
      summary: `Replay ${replayId} of ${replay.total} failed run${replay.total === 1 ? '' : 's'} started ${body.from} to ${body.to} (version: run)`,
    });
    // A replay of one run may end before the cancel arrives (409 REPLAY_NOT_RUNNING): then nothing is recorded for it.
    const cancelled = replayEvents.filter((event: any) => event.action === 'automation.replay_cancelled');
    if (cancel.status === 202)
      expect(cancelled).toEqual([
        expect.objectContaining({ summary: expect.stringMatching(new RegExp(`^Replay ${replayId} cancelled after \\d+ of \\d+ reruns$`)) }),
      ]);
    else expect([cancel.status, cancelled]).toEqual([409, []]);
  });

  it('an evidence export: evidence.exported on the organisation with the period, format and count', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const csv = await acme.wf(`/compliance/evidence?from=${from}&to=${to}&format=csv`);
    expect(csv.status).toBe(200);
    const { events } = ok(await audit(acme, '?action=evidence.exported'));
    expect(events).toEqual([
      expect.objectContaining({
        actor: { kind: 'api_key', id: keyId },
        targetType: 'evidence',
        targetId: acme.operator.operatorId,
        targetName: null,
        summary: `Exported 0 evidence records (csv), ${from} to ${to}`,
      }),
    ]);
  });

  it('keeps no payload value, and names a deleted workflow as deleted', async () => {
    const rows = await app.deps.db('audit_events').where({ operator_id: acme.operator.operatorId });
    expect(JSON.stringify(rows)).not.toContain('not-in-the-trail-4411');
    expect(ok(await acme.wf(`/workflows/${workflowId}`, { method: 'DELETE' }))).toEqual({ id: workflowId, deleted: true });
    const { events } = ok(await audit(acme, `?targetType=run&targetId=${rerunId}`));
    expect(events).toEqual([expect.objectContaining({ targetName: 'Welcome journey', targetDeleted: true })]);
  });

  it('a member target is named by its login email (no display name), an API key by its label', async () => {
    const member = await addMemberAndSignIn(app.deps.db, app.url, acme.operator.operatorId, 'member');
    const { memberId } = member;
    ok(await http(teamUrl(app, `/operators/me/members/${memberId}`), { method: 'PATCH', token: acme.operator.accessToken, body: { role: 'admin' } }));
    expect(ok(await audit(acme, `?targetType=member&targetId=${memberId}`)).events).toEqual([
      expect.objectContaining({ action: 'member.updated', targetName: member.email }),
    ]);
    expect(ok(await audit(acme, `?targetType=api_key&targetId=${keyId}`)).events).toEqual([
      expect.objectContaining({ action: 'api_key.created', targetName: expect.any(String) }),
    ]);
    const label = (await app.deps.db('api_keys').where({ id: keyId }).first('label')).label;
    expect(ok(await audit(acme, `?targetType=api_key&targetId=${keyId}`)).events[0].targetName).toBe(label);
  });

  it("another operator sees none of it, and names none of this operator's records", async () => {
    const own = ok(await audit(rival, '?limit=200')).events;
    expect(own.filter((event: any) => [workflowId, rerunId, acme.operator.operatorId].includes(event.targetId))).toEqual([]);
    expect(ok(await audit(rival, `?targetId=${workflowId}`)).count).toBe(0);
    // The rival's own test run of a workflow is named by its own workflow only.
    const theirs = await rival.create(chain('Rival flow', [{ id: 'note', type: 'action.note', params: { text: 'x' } }]));
    const run = runOf(await http(`${app.url}/workflows-api/workflows/${theirs.id}/test`, { method: 'POST', body: {}, token: rival.operator.accessToken }));
    await ended(run.id);
    expect(ok(await audit(rival, '?action=automation.test_run_started')).events).toEqual([
      expect.objectContaining({ targetId: theirs.id, targetName: 'Rival flow', summary: `Test run ${run.id} on version 1` }),
    ]);
  });
});
