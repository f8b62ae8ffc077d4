import { prefixedId } from '../../core/ids';
import type http from 'node:http';
import { startLoopbackServer } from '../stack/loopbackServer';
import { startSupplier, SUPPLIER_KEY, supplierDocument } from '../stack/loopbackSupplier';
import { post } from '../stack/stackClient';
import { waitedRunSteps } from '../../api/waitedRuns';
import { findRunRecord } from '../../db/queries/automationRuns';
import { answerRunApproval, automationRunWorkflowId, cancelAutomationRun, runAutomationNow, startAutomationRun } from '../../temporal/automationRuns';
import { GatewayLanes } from '../../temporal/gatewayCalls';
import { recordBacktest } from './replayBacktest';
import { recordReruns } from './replayReruns';
import { recordRunControlLanes } from './replayRunControl';
import { recordWaitingRuns } from './replayWaits';
import type { AppDeps } from '../../api/deps';
import type { Recorder } from './replayRecorder';
import {
  analyticsRefreshWorkflow,
  audienceRefreshWorkflow,
  diagnosticsWorkflow,
  outboxSweepWorkflow,
  retentionWorkflow,
  runWatchdogWorkflow,
  sendEmailWorkflow,
} from '../../workflows';

type Node = { id: string; type: string; params?: Record<string, unknown> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A loopback server whose `/hold` requests wait until `release()`; anything else answers 200, `/missing` 404. */
async function startHoldingServer() {
  const held: http.ServerResponse[] = [];
  const server = await startLoopbackServer((request, _body, response) => {
    if (request.url?.startsWith('/hold')) return void held.push(response);
    response.writeHead(request.url?.startsWith('/missing') ? 404 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ received: true }));
  });
  return {
    url: server.url,
    held: () => held.length,
    release() {
      for (const response of held.splice(0)) response.writeHead(200, { 'content-type': 'application/json' }).end('{"released":true}');
    },
    close: server.close,
  };
}

/**
 * Drives every workflow type into the states whose histories a new release must still replay, and saves each.
 * Each scenario waits for its state through the platform's own records (runs, jobs) or Temporal's description.
 */
export async function recordScenarios(recorder: Recorder): Promise<void> {
  const { url, operator, deps } = recorder;
  const { client, taskQueue } = deps.temporal;
  const key = operator.apiKey;
  const supplier = await startSupplier();
  const holding = await startHoldingServer();
  try {
    const connector = await post(
      url,
      '/connections-api/connectors',
      { name: 'Replay KYC', provider: 'replay', openapi: supplierDocument(supplier.url), schemaMap: { playerId: 'player_ref', status: 'kyc_state' } },
      key,
    );
    const connection = await post(
      url,
      '/connections-api/connections',
      { connectorId: connector.data.id, name: 'replay', credentials: { apiKey: SUPPLIER_KEY } },
      key,
    );
    const connectionId = connection.data.id as string;
    await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'p-1', data: { email: 'p1@example.test', country: 'MT' } }, key);

    const automation = async (name: string, nodes: Node[], edges: Array<{ from: string; to: string; when?: boolean }>) =>
      (await post(url, '/workflows-api/workflows', { name, nodes, edges }, key)).data.id as string;
    const chain = (nodes: Node[]) => nodes.slice(1).map((node, index) => ({ from: nodes[index]!.id, to: node.id }));
    const manual: Node = { id: 'start', type: 'trigger.manual', params: { inputSchema: { type: 'object', properties: {}, required: ['playerId'] } } };
    const start = async (automationId: string, input: Record<string, unknown>) =>
      (await startAutomationRun(deps.temporal, { operatorId: operator.operatorId, automationId, source: 'manual', input })).handle;
    const runStatus = (workflowId: string) =>
      deps.db('automation_runs').where({ operator_id: operator.operatorId, temporal_workflow_id: workflowId }).first('status', 'nodes');
    const finished = async (workflowId: string) => {
      await until(`${workflowId} closed`, async () => ((await client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING' ? undefined : true));
    };

    // Every node kind on the true branch of a condition, the false branch skipped; ends completed.
    const everything = await automation(
      'Replay: every node kind',
      [
        manual,
        { id: 'big', type: 'condition', params: { expression: 'trigger.amount > 100' } },
        { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: '{{ trigger.amount / 10 }}' } },
        { id: 'upsert', type: 'action.upsert_entity', params: { entityType: 'player', externalId: 'p-2', data: { country: 'MT' } } },
        {
          id: 'note',
          type: 'action.record_event',
          params: {
            externalId: '{{ trigger.playerId }}',
            eventType: 'transaction',
            data: { type: 'deposit', amount: '{{ trigger.amount }}', currency: 'EUR' },
          },
        },
        { id: 'kyc', type: 'action.gateway', params: { connectionId, operation: 'kyc.status', params: { playerId: '{{ trigger.playerId }}' } } },
        {
          id: 'tell',
          type: 'action.http_request',
          params: { method: 'POST', url: `${holding.url}/alerts`, body: { player: '{{ trigger.playerId }}', status: '{{ nodes.kyc.data.status }}' } },
        },
        {
          id: 'mail',
          type: 'action.send_email',
          params: { to: 'ops@example.test', subject: 'Deposit {{ trigger.amount }}', text: 'Player {{ trigger.playerId }}' },
        },
        { id: 'pause', type: 'action.delay', params: { seconds: 1 } },
        { id: 'small', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: 1 } },
      ],
      [
        { from: 'start', to: 'big' },
        { from: 'big', to: 'flag', when: true },
        { from: 'flag', to: 'upsert' },
        { from: 'upsert', to: 'note' },
        { from: 'note', to: 'kyc' },
        { from: 'kyc', to: 'tell' },
        { from: 'tell', to: 'mail' },
        { from: 'mail', to: 'pause' },
        { from: 'big', to: 'small', when: false },
      ],
    );
    const completed = await start(everything, { playerId: 'p-1', amount: 500 });
    await finished(completed.workflowId);
    await recorder.save('automation-run-completed', completed.workflowId);

    // An approval step answered through the workflow's Update, then the step after it.
    const approving = await automation(
      'Replay: approval',
      [
        manual,
        { id: 'approve', type: 'action.approval', params: { message: 'Approve {{ trigger.playerId }}?', timeoutSeconds: 600 } },
        { id: 'after', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'approved', value: '{{ nodes.approve.approved }}' } },
      ],
      chain([manual, { id: 'approve', type: 'action.approval', params: {} }, { id: 'after', type: 'action.set_state', params: {} }]),
    );
    const approved = await start(approving, { playerId: 'p-1' });
    await until('the approval awaited', async () =>
      (await deps.db('automation_runs').where({ operator_id: operator.operatorId, temporal_workflow_id: approved.workflowId }).first('awaiting_input'))
        ?.awaiting_input
        ? true
        : undefined,
    );
    await answerRunApproval(deps.temporal, approved.workflowId, { nodeId: 'approve', approved: true, answeredBy: 'member:replay' });
    await finished(approved.workflowId);
    await recorder.save('automation-run-approved', approved.workflowId);

    const failingNodes: Node[] = [
      manual,
      { id: 'lost', type: 'action.http_request', params: { method: 'GET', url: `${holding.url}/missing` } },
      { id: 'after', type: 'action.delay', params: { seconds: 1 } },
    ];
    const failing = await automation('Replay: failing node', failingNodes, chain(failingNodes));
    const failed = await start(failing, { playerId: 'p-1' });
    await finished(failed.workflowId);
    await recorder.save('automation-run-failed', failed.workflowId);

    const rejected = await start(failing, {});
    await finished(rejected.workflowId);
    await recorder.save('automation-run-rejected', rejected.workflowId);

    // Begun and ended by its caller, as the API runs a manual test or an MCP `tools/call`: no begin or end step.
    const begunNodes: Node[] = [
      manual,
      { id: 'mark', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'loyalty_tier', value: 'gold' } },
    ];
    const begunBy = await automation('Replay: begun by its caller', begunNodes, chain(begunNodes));
    const begun = await runAutomationNow(
      deps.temporal,
      { operatorId: operator.operatorId, automationId: begunBy, source: 'manual', input: { playerId: 'p-1' } },
      { ...waitedRunSteps(deps), waitMs: 30_000, readRun: (runId) => findRunRecord(deps.db, deps.keyring, operator.operatorId, runId) },
    );
    if (begun.kind !== 'finished' || begun.run.status !== 'completed') throw new Error(`the begun run ended ${JSON.stringify(begun)}`);
    await recorder.save('automation-run-begun-by-caller', begun.run.temporalWorkflowId!);

    // Begun by its caller and outlasting the caller's wait: no begin step, its own end step — a begun run still in
    // flight when a new release comes.
    const outlastingNodes: Node[] = [...begunNodes, { id: 'wait', type: 'action.delay', params: { seconds: 1 } }];
    const outlastingBy = await automation('Replay: begun, outlasting the wait', outlastingNodes, chain(outlastingNodes));
    const outlasting = await runAutomationNow(
      deps.temporal,
      { operatorId: operator.operatorId, automationId: outlastingBy, source: 'manual', input: { playerId: 'p-1' } },
      { ...waitedRunSteps(deps), waitMs: 200, readRun: (runId) => findRunRecord(deps.db, deps.keyring, operator.operatorId, runId) },
    );
    if (outlasting.kind !== 'running') throw new Error(`the outlasting run answered ${JSON.stringify(outlasting)}`);
    const outlastingId = automationRunWorkflowId('manual', outlasting.runId);
    await finished(outlastingId);
    await recorder.save('automation-run-begun-outlasting-wait', outlastingId);

    // Asleep in a day-long delay after a templated write: the shape of every long-lived run in flight.
    const sleeperNodes: Node[] = [
      manual,
      { id: 'mark', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: 7 } },
      { id: 'wait', type: 'action.delay', params: { seconds: 86_400 } },
      { id: 'after', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: 8 } },
    ];
    const sleeper = await automation('Replay: asleep in a delay', sleeperNodes, chain(sleeperNodes));
    const asleep = await start(sleeper, { playerId: 'p-1' });
    await until('the run asleep', async () => ((await describePending(asleep)) === 'timer' ? true : undefined));
    await recorder.save('automation-run-asleep-in-delay', asleep.workflowId);

    // Past two conditions, waiting on an HTTP call the server holds: a run in flight mid-branch.
    const branching = await automation(
      'Replay: mid-branch',
      [
        manual,
        { id: 'first', type: 'condition', params: { expression: '$exists(trigger.playerId)' } },
        { id: 'second', type: 'condition', params: { expression: '$contains(trigger.playerId, "p-")' } },
        { id: 'call', type: 'action.http_request', params: { method: 'POST', url: `${holding.url}/hold`, body: { player: '{{ trigger.playerId }}' } } },
        { id: 'other', type: 'action.set_state', params: { externalId: '{{ trigger.playerId }}', key: 'risk_score', value: 0 } },
      ],
      [
        { from: 'start', to: 'first' },
        { from: 'first', to: 'second', when: true },
        { from: 'second', to: 'call', when: true },
        { from: 'second', to: 'other', when: false },
      ],
    );
    const midBranch = await start(branching, { playerId: 'p-1' });
    await until('the held HTTP call', async () => (holding.held() > 0 ? true : undefined));
    await recorder.save('automation-run-mid-condition', midBranch.workflowId);
    holding.release();
    await finished(midBranch.workflowId);

    const cancelledRun = await start(sleeper, { playerId: 'p-1' });
    await until('the run asleep', async () => ((await describePending(cancelledRun)) === 'timer' ? true : undefined));
    await cancelAutomationRun(deps.temporal, cancelledRun.workflowId);
    await until('the run cancelled', async () => ((await runStatus(cancelledRun.workflowId))?.status === 'cancelled' ? true : undefined));
    await finished(cancelledRun.workflowId);
    await recorder.save('automation-run-cancelled', cancelledRun.workflowId);

    const onDeposit = await automation(
      'Replay: event trigger',
      [
        { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.amount >= 50' } },
        {
          id: 'mark',
          type: 'action.set_state',
          params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: '{{ trigger.data.amount }}' },
        },
      ],
      [{ from: 'deposit', to: 'mark' }],
    );
    await post(url, '/operator-data-api/entities/p-1/events', { eventType: 'transaction', data: { type: 'deposit', amount: 75, currency: 'EUR' } }, key);
    const eventRun = await until('the event run', async () => {
      const row = await deps
        .db('automation_runs')
        .where({ operator_id: operator.operatorId, automation_id: onDeposit, status: 'completed' })
        .first('temporal_workflow_id');
      return row?.temporal_workflow_id as string | undefined;
    });
    await recorder.save('automation-run-event', eventRun);

    const onSmallDeposit = await automation(
      'Replay: reads the player',
      [
        { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction', filter: 'trigger.data.amount < 50' } },
        { id: 'known', type: 'condition', params: { expression: 'player.externalId = trigger.entity.externalId' } },
        { id: 'mark', type: 'action.set_state', params: { externalId: '{{ player.externalId }}', key: 'loyalty_tier', value: 'small' } },
      ],
      [
        { from: 'deposit', to: 'known' },
        { from: 'known', to: 'mark', when: true },
      ],
    );
    await post(url, '/operator-data-api/entities/p-1/events', { eventType: 'transaction', data: { type: 'deposit', amount: 20, currency: 'EUR' } }, key);
    const playerRun = await until('the run reading its player', async () => {
      const row = await deps
        .db('automation_runs')
        .where({ operator_id: operator.operatorId, automation_id: onSmallDeposit, status: 'completed' })
        .first('temporal_workflow_id');
      return row?.temporal_workflow_id as string | undefined;
    });
    await recorder.save('automation-run-reads-player', playerRun);

    await recordLane(recorder, connectionId);
    await recordRunControlLanes(recorder);
    await recordReruns(recorder);
    await recordBacktest(recorder);
    await recordWaitingRuns(recorder);
    await recordOthers(recorder, { client, taskQueue });
  } finally {
    await holding.close();
    await supplier.close();
  }

  async function describePending(handle: { workflowId: string }): Promise<'timer' | 'activity' | 'task' | undefined> {
    const description = await client.workflow.getHandle(handle.workflowId).describe();
    const raw = description.raw;
    if ((raw.pendingActivities ?? []).length > 0) return 'activity';
    if (raw.pendingWorkflowTask) return 'task';
    const run = await deps.db('automation_runs').where({ operator_id: operator.operatorId, temporal_workflow_id: handle.workflowId }).first('status');
    return run?.status === 'running' ? 'timer' : undefined;
  }
}

/** A lane of two calls a run: a GET and a POST in the first run, which continues as new; a GET in the second. */
async function recordLane(recorder: Recorder, connectionId: string): Promise<void> {
  const { deps, operator } = recorder;
  const { client, taskQueue } = deps.temporal;
  const lanes = new GatewayLanes({ client, taskQueue, instanceId: 'replay' }, { callsPerRun: 2 });
  const limits = { timeoutMs: 10_000, maxAttempts: 3 };
  const call = (operation: string) =>
    lanes.call({ operatorId: operator.operatorId, connectionId, operation, params: { playerId: 'p-1' }, callId: prefixedId('gwc'), caller: 'api', limits });
  await call('kyc.status');
  await call('verification.start');
  await call('kyc.status');
  const laneId = `gateway-lane-${operator.operatorId}-replay-0`;
  const runs: Array<{ runId: string; status: string }> = [];
  for await (const execution of client.workflow.list({ query: `WorkflowId = "${laneId}"` }))
    runs.push({ runId: execution.runId, status: execution.status.name });
  const rolled = runs.find((run) => run.status === 'CONTINUED_AS_NEW');
  const current = runs.find((run) => run.status === 'RUNNING');
  if (!rolled || !current) throw new Error(`lane runs: ${JSON.stringify(runs)}`);
  await recorder.save('gateway-lane-rolled-over', laneId, rolled.runId);
  await recorder.save('gateway-lane-next-run', laneId, current.runId);
}

/** A batch of events, the e-mail workflows and the platform's own jobs, each run to its end. */
async function recordOthers(recorder: Recorder, temporal: { client: AppDeps['temporal']['client']; taskQueue: string }): Promise<void> {
  const { url, operator, deps } = recorder;
  const { client, taskQueue } = temporal;
  const events = Array.from({ length: 30 }, (_, index) => ({
    externalId: 'p-1',
    eventType: 'transaction',
    data: { type: 'deposit', amount: index + 1, currency: 'EUR' },
  }));
  const batch = await post(url, '/operator-data-api/batch/events', events, operator.apiKey);
  const jobId = batch.data.jobId as string;
  await until('the batch job', async () => {
    const job = await deps.db('batch_jobs').where({ operator_id: operator.operatorId, id: jobId }).first('status');
    return job?.status === 'completed' ? true : undefined;
  });
  await recorder.save('batch-ingest', jobId);

  await post(url, '/platform-api/operators/me/invites', { email: 'new.member@example.test', role: 'member' }, operator.accessToken);
  const invite = await until('the invite e-mail', async () => {
    for await (const execution of client.workflow.list({ query: `WorkflowType = "sendInviteEmailWorkflow" AND ExecutionStatus = "Completed"` }))
      return execution.workflowId;
    return undefined;
  });
  await recorder.save('send-invite-email', invite);

  const plain: Array<[string, () => Promise<unknown>]> = [
    [
      'send-email',
      () =>
        client.workflow.execute(sendEmailWorkflow, {
          taskQueue,
          workflowId: 'replay-send-email',
          args: [{ to: 'ops@example.test', subject: 'Hello', text: 'Replay' }],
        }),
    ],
    ['diagnostics', () => client.workflow.execute(diagnosticsWorkflow, { taskQueue, workflowId: 'replay-diagnostics', args: [{ message: 'replay' }] })],
    ['outbox-sweep', () => client.workflow.execute(outboxSweepWorkflow, { taskQueue, workflowId: 'replay-outbox-sweep', args: [] })],
    ['analytics-refresh', () => client.workflow.execute(analyticsRefreshWorkflow, { taskQueue, workflowId: 'replay-analytics-refresh', args: [] })],
    ['audience-refresh', () => client.workflow.execute(audienceRefreshWorkflow, { taskQueue, workflowId: 'replay-audience-refresh', args: [] })],
    ['retention', () => client.workflow.execute(retentionWorkflow, { taskQueue, workflowId: 'replay-retention', args: [{}] })],
    ['run-watchdog', () => client.workflow.execute(runWatchdogWorkflow, { taskQueue, workflowId: 'replay-run-watchdog', args: [] })],
  ];
  for (const [name, run] of plain) {
    await run();
    await recorder.save(name, `replay-${name}`);
  }
}
