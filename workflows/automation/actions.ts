import { CancellationScope, patched, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { DataWriteInput, HttpRequestInput } from '../../activities/automation/types';
import type { AutomationNode } from '../../core/automations/types';
import { executeGatewayCall } from '../gatewayCall';
import { NodeError } from './nodeError';

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

/**
 * Runs one action node whose params are already rendered, returning its output. Failures surface as
 * Temporal failures (`ActivityFailure` with the activity's `ApplicationFailure`) or `NodeError`.
 *
 * When the run is cancelled mid-action, an action already sent finishes and its outcome is recorded: data writes
 * and gateway calls (local activities, which a cancellation would otherwise abandon while they still write or
 * call) are shielded; HTTP, e-mail and AI activities, which do not heartbeat, finish their current attempt
 * (Temporal's default `WAIT_CANCELLATION_COMPLETED`). Only `action.delay` stops at once.
 */
export async function runAction(
  node: AutomationNode,
  params: Record<string, unknown>,
  scope: { operatorId: string; automationId: string; runId: string },
): Promise<unknown> {
  const { operatorId } = scope;
  const once = { operatorId, automationId: scope.automationId, idempotencyKey: `${scope.runId}:${node.id}` };
  switch (node.type) {
    case 'action.http_request':
      return http.automationHttpRequest({
        operatorId,
        method: str(params.method).toUpperCase(),
        url: str(params.url),
        ...(params.headers ? { headers: Object.fromEntries(Object.entries(params.headers as Record<string, unknown>).map(([k, v]) => [k, str(v)])) } : {}),
        ...(params.body === undefined ? {} : { body: params.body }),
        idempotencyKey: once.idempotencyKey,
      } satisfies HttpRequestInput);
    case 'action.gateway': {
      const result = await CancellationScope.nonCancellable(() =>
        executeGatewayCall({
          operatorId,
          connectionId: str(params.connectionId),
          operation: str(params.operation),
          params: (params.params ?? {}) as Record<string, unknown>,
          callId: once.idempotencyKey,
          caller: 'run',
        }),
      );
      if (!result.ok)
        throw new NodeError('PROVIDER_ERROR', result.message || `Provider answered ${result.status ?? 'with no response'}`, {
          status: result.status,
          data: result.data,
        });
      return { status: result.status, data: result.data };
    }
    case 'action.set_state':
      return writeData({ ...once, kind: 'state', externalId: str(params.externalId), key: str(params.key), value: params.value });
    case 'action.record_event':
      return writeData({ ...once, kind: 'event', externalId: str(params.externalId), eventType: str(params.eventType), data: params.data });
    case 'action.upsert_entity':
      return writeData({ ...once, kind: 'entity', entityType: str(params.entityType), externalId: str(params.externalId), data: params.data });
    case 'action.delay': {
      const seconds = Number(params.seconds);
      if (seconds > RECORDED_DELAY_SECONDS && patched(WAITING_RECORDED)) {
        const until = new Date(Date.now() + seconds * 1000).toISOString();
        await CancellationScope.nonCancellable(() => data.markAutomationRunWaiting({ operatorId, runId: scope.runId, until }));
      }
      await sleep(seconds * 1000);
      return { waitedSeconds: seconds };
    }
    case 'action.send_email':
      return email.sendEmail({ to: str(params.to), subject: str(params.subject), text: str(params.text) });
    case 'action.ai':
      return ai.automationAiChat({ prompt: str(params.prompt), ...(params.model ? { model: str(params.model) } : {}) });
    default:
      throw new NodeError('UNKNOWN_NODE_TYPE', `Node type ${node.type} cannot run`);
  }
}
