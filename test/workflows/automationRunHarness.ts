import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { MarketingGateInput, MarketingGateVerdict } from '../../commands/compliance/gate';
import { evaluate, isTruthy, renderParams } from '../../core/automations/expressions';
import type { AutomationDefinition } from '../../core/automations/types';
import type { BeginRunInput, BeginRunResult, FinishRunInput } from '../../core/workflowContracts';
import type { ExpressionOutcome, SingleExpressionTask } from '../../sandbox/tasks';

/** What the plain activities saw: the calls each received, by name, and the outcome the run's end step was given. */
export interface Seen {
  calls: Array<{ name: string; input: any }>;
  finished: FinishRunInput | null;
}

/** How one run's plain activities answer where a test wants something else than the default. */
export interface Script {
  gate?: (input: MarketingGateInput) => MarketingGateVerdict;
}

async function evaluated(task: SingleExpressionTask): Promise<ExpressionOutcome> {
  if (task.kind === 'condition') return { ok: true, value: isTruthy(await evaluate(task.expression, task.context)) };
  return { ok: true, value: await renderParams(task.params, task.context) };
}

/**
 * The activities of `automationRunV2Workflow` as plain functions, holding nothing but what the test gave them: the
 * begin step hands over `definition`, the data writes, e-mails and waits are recorded and answered at once.
 */
function plainActivities(definition: AutomationDefinition, seen: Seen, script: Script) {
  const record =
    <I, O>(name: string, answer: (input: I) => O | Promise<O>) =>
    async (input: I): Promise<O> => {
      seen.calls.push({ name, input });
      return answer(input);
    };
  return {
    beginAutomationRun: record('beginAutomationRun', (input: BeginRunInput): BeginRunResult => {
      const trigger = definition.nodes.find((node) => node.type.startsWith('trigger.'))!;
      return {
        kind: 'started',
        runId: input.runId,
        workflow: { id: input.automationId, name: 'Under test', version: 1 },
        definition,
        triggerNodeId: trigger.id,
        triggerType: trigger.type,
        reserved: { actions: 10, aiActions: 0 },
      };
    }),
    finishAutomationRun: record('finishAutomationRun', (input: FinishRunInput) => {
      seen.finished = input;
      return { runId: input.runId, source: 'manual', status: input.status };
    }),
    markAutomationRunAwaitingInput: record('markAutomationRunAwaitingInput', () => undefined),
    markAutomationRunWaiting: record('markAutomationRunWaiting', () => undefined),
    automationEvaluate: record('automationEvaluate', ({ task }: { task: SingleExpressionTask }) => evaluated(task)),
    automationWriteData: record('automationWriteData', (input: { kind: string; externalId: string; key?: string; value?: unknown }) => ({
      externalId: input.externalId,
      key: input.key,
      value: input.value,
    })),
    sendEmail: record('sendEmail', () => ({ delivery: 'file', file: 'mail.eml' })),
    checkMarketingGate: record(
      'checkMarketingGate',
      (input: MarketingGateInput): MarketingGateVerdict => script.gate?.(input) ?? { rule: 'allowed', playerId: input.playerId, stateHash: 'h' },
    ),
    registerRunWait: record('registerRunWait', () => ({ candidates: [] })),
    loadWaitedEvent: record('loadWaitedEvent', (input: { candidate: { eventId: string }; event: string }) => ({
      id: input.candidate.eventId,
      event: input.event,
      occurredAt: new Date().toISOString(),
      data: { type: 'deposit' },
    })),
    endRunWait: record('endRunWait', () => undefined),
  };
}

/**
 * A `TestWorkflowEnvironment` on the Temporal server jest's globalSetup started (the time-skipping test server is a
 * download this machine cannot make: waits here are seconds long), and a worker on a queue of its own running today's
 * workflow bundle with the plain activities above; `options` go to the worker (a small cache, to evict).
 */
export async function workflowHarness(options: { maxCachedWorkflows?: number } = {}) {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Installed already by an earlier file in this jest worker: its logger stays.
  }
  const env = await TestWorkflowEnvironment.createFromExistingServer({ address: process.env.TEMPORAL_ADDRESS });
  const taskQueue = `workflow-tests-${randomUUID()}`;
  let current: { definition: AutomationDefinition; seen: Seen; script: Script } | null = null;
  const names = Object.keys(plainActivities({ nodes: [], edges: [] }, { calls: [], finished: null }, {}));
  const activities = Object.fromEntries(
    names.map((name) => [
      name,
      (input: unknown) => {
        if (!current) throw new Error('no run under test');
        return (plainActivities(current.definition, current.seen, current.script) as Record<string, (input: unknown) => Promise<unknown>>)[name]!(input);
      },
    ]),
  );
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
    activities,
    ...options,
  });
  const running = worker.run();

  /** Starts one run of `definition` and returns its handle with what its activities see. */
  const start = async (definition: AutomationDefinition, input: unknown, script: Script = {}) => {
    const seen: Seen = { calls: [], finished: null };
    current = { definition, seen, script };
    const handle = await env.client.workflow.start('automationRunV2Workflow', {
      taskQueue,
      workflowId: `workflow-test-${randomUUID()}`,
      args: [{ operatorId: 'op_test', automationId: 'wf_test', source: 'manual', input }],
    });
    return { handle, seen };
  };

  const close = async () => {
    worker.shutdown();
    await running;
    await env.teardown();
  };
  return { env, worker, start, close };
}

/** The names of the activities a run called, in order, without the begin and end steps every run takes. */
export const calledBetween = (seen: Seen) =>
  seen.calls.map((call) => call.name).filter((name) => name !== 'beginAutomationRun' && name !== 'finishAutomationRun');

/** Resolves once `check` holds, polling every 50 ms; throws after `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
