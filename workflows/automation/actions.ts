import { CancellationScope, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { DataWriteInput, HttpRequestInput } from '../../activities/automation/types';
import type { ApprovalOutput } from '../../core/automations/approval';
import type { RunContext } from '../../core/automations/expressions';
import type { LiveWait } from '../../core/automations/liveRun';
import type { InlineRun } from '../../core/automations/nodes/flow';
import { NODE_FLOWS } from '../../core/automations/nodes/flows';
import { isAction, type ActionType, type AutomationNode, type InlineActionType } from '../../core/automations/types';
import { executeGatewayCall } from '../gatewayCall';
import { gateMarketing } from './gate';
import { NodeError } from './nodeError';
import type { PatchCheck } from './patches';
import { waitForEvent } from './waitForEvent';

/**
 * The worker heartbeats the normal activities below while they run (worker/livenessHeartbeat.ts): a silence this long
 * means the worker died mid-call, and the attempt is retried elsewhere instead of after its whole start-to-close timeout.
 */
const LOST_WORKER_AFTER = '4 seconds';
/**
 * Data writes are short database transactions: local activities, so a run of such actions completes in
 * one workflow task instead of a task-queue round trip per action; retried on transient faults.
 */
const data = proxyLocalActivities<Activities>({
  startToCloseTimeout: '20 seconds',
  retry: { maximumAttempts: 5, initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});
/** Outbound HTTP: 5xx, 408, 429 and network errors are retried with backoff; other 4xx fail at once. */
const http = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: LOST_WORKER_AFTER,
  retry: { maximumAttempts: 5, initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
const ai = proxyActivities<Activities>({
  startToCloseTimeout: '90 seconds',
  heartbeatTimeout: LOST_WORKER_AFTER,
  retry: { maximumAttempts: 4, initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
const email = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: LOST_WORKER_AFTER,
  retry: { maximumAttempts: 5, initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

const writeData = (input: DataWriteInput) => CancellationScope.nonCancellable(() => data.automationWriteData(input));

/** The patch that records long sleeps for the run watchdog (docs/workflows.md#versioning). */
export const WAITING_RECORDED = 'run-waiting-recorded';
/** Delays up to this long are not recorded: the watchdog does not look at a run that quiet anyway. */
const RECORDED_DELAY_SECONDS = 60;

const str = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** What a runner knows of the run beside its node's rendered params. */
export interface RunnerScope {
  operatorId: string;
  automationId: string;
  runId: string;
  node: AutomationNode;
  /** The run so far: a wait's filter reads it beside the arriving event. */
  context: RunContext;
  /** The run's approval handling (its Update handler lives with the workflow, workflows/automationRun.ts). */
  awaitApproval: (params: Record<string, unknown>) => Promise<ApprovalOutput>;
  /** Which of the run's patches it takes (./patches.ts). */
  applies: PatchCheck;
  /** Tells the run's live timeline what the step now waits for (./timeline.ts): workflow memory only, no command. */
  onWait?: (wait: LiveWait) => void;
}

type Runner = (params: Record<string, unknown>, scope: RunnerScope) => Promise<unknown>;

const onceOf = (scope: RunnerScope) => ({ operatorId: scope.operatorId, automationId: scope.automationId, idempotencyKey: `${scope.runId}:${scope.node.id}` });

/**
 * How each action runs in workflow code, by type: an action type that does not run inline (its `flow.ts` declares
 * `inline`) and has no runner here does not compile. Failures
 * surface as Temporal failures (`ActivityFailure` with the activity's `ApplicationFailure`) or `NodeError`.
 *
 * When the run is cancelled mid-action, an action already sent finishes and its outcome is recorded: data writes
 * and gateway calls (local activities, which a cancellation would otherwise abandon while they still write or
 * call) are shielded; HTTP, e-mail and AI activities, which do not heartbeat, finish their current attempt
 * (Temporal's default `WAIT_CANCELLATION_COMPLETED`). `action.delay` and the waits stop at once.
 */
const RUNNERS: Record<Exclude<ActionType, InlineActionType>, Runner> = {
  'action.http_request': (params, scope) =>
    http.automationHttpRequest({
      operatorId: scope.operatorId,
      method: str(params.method).toUpperCase(),
      url: str(params.url),
      ...(params.headers ? { headers: Object.fromEntries(Object.entries(params.headers as Record<string, unknown>).map(([k, v]) => [k, str(v)])) } : {}),
      ...(params.body === undefined ? {} : { body: params.body }),
      idempotencyKey: onceOf(scope).idempotencyKey,
    } satisfies HttpRequestInput),
  'action.gateway': async (params, scope) => {
    const result = await CancellationScope.nonCancellable(() =>
      executeGatewayCall({
        operatorId: scope.operatorId,
        connectionId: str(params.connectionId),
        operation: str(params.operation),
        params: (params.params ?? {}) as Record<string, unknown>,
        callId: onceOf(scope).idempotencyKey,
        caller: 'run',
      }),
    );
    if (!result.ok)
      throw new NodeError('PROVIDER_ERROR', result.message || `Provider answered ${result.status ?? 'with no response'}`, {
        status: result.status,
        data: result.data,
      });
    return { status: result.status, data: result.data };
  },
  'action.set_state': (params, scope) =>
    writeData({ ...onceOf(scope), kind: 'state', externalId: str(params.externalId), key: str(params.key), value: params.value }),
  'action.record_event': (params, scope) =>
    writeData({ ...onceOf(scope), kind: 'event', externalId: str(params.externalId), eventType: str(params.eventType), data: params.data }),
  'action.upsert_entity': (params, scope) =>
    writeData({ ...onceOf(scope), kind: 'entity', entityType: str(params.entityType), externalId: str(params.externalId), data: params.data }),
  'action.delay': async (params, scope) => {
    const seconds = Number(params.seconds);
    scope.onWait?.({ for: 'delay', until: new Date(Date.now() + seconds * 1000).toISOString() });
    if (seconds > RECORDED_DELAY_SECONDS && scope.applies(WAITING_RECORDED)) {
      const until = new Date(Date.now() + seconds * 1000).toISOString();
      await CancellationScope.nonCancellable(() => data.markAutomationRunWaiting({ operatorId: scope.operatorId, runId: scope.runId, until }));
    }
    await sleep(seconds * 1000);
    return { waitedSeconds: seconds };
  },
  'action.send_email': (params) => email.sendEmail({ to: str(params.to), subject: str(params.subject), text: str(params.text) }),
  'action.ai': (params) => ai.automationAiChat({ prompt: str(params.prompt), ...(params.model ? { model: str(params.model) } : {}) }),
  'action.approval': (params, scope) => scope.awaitApproval(params),
  'action.wait_for_event': (params, scope) =>
    waitForEvent(params, { operatorId: scope.operatorId, runId: scope.runId, nodeId: scope.node.id, context: scope.context, onWait: scope.onWait }),
};

/**
 * Runs one action node whose params are already rendered, returning its output; a marketing step the
 * responsible-gambling gate stops is not performed and answers `{ suppressed: true, rule, … }` (./gate.ts).
 *
 * @example await runAction(node, params, { operatorId, automationId, runId, node, context, awaitApproval, applies })
 */
export async function runAction(node: AutomationNode, params: Record<string, unknown>, scope: Omit<RunnerScope, 'node'>): Promise<unknown> {
  if (!isAction(node.type)) throw new NodeError('NOT_AN_ACTION', `Node type ${node.type} is not an action`);
  const suppressed = await gateMarketing(node, params, scope);
  if (suppressed) return suppressed;
  const inline: InlineRun | null = NODE_FLOWS[node.type].inline;
  if (inline) return inline(params);
  return RUNNERS[node.type as Exclude<ActionType, InlineActionType>](params, { ...scope, node });
}
