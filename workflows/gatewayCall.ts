import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { GatewayCallInput, GatewayCallResult, GatewayLimits } from '../activities/gateway/types';

/** Used when a caller gives no limits; they equal the documented defaults of GATEWAY_TIMEOUT_MS and GATEWAY_MAX_ATTEMPTS. */
const DEFAULT_LIMITS: GatewayLimits = { timeoutMs: 10_000, maxAttempts: 3 };
const IDEMPOTENT_METHODS = new Set(['GET', 'PUT', 'DELETE']);

const { prepareGatewayCall } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '100 milliseconds' },
});

/**
 * One gateway call, for any workflow: resolve it, then send it. GET, PUT and DELETE are retried on
 * network errors and 5xx up to `maxAttempts` (each attempt bounded by `timeoutMs`) and run as local
 * activities: a repeat is harmless, and skipping the task-queue round trips through the server saves
 * most of the gateway's latency. POST and PATCH run as a normal activity with a single attempt, so
 * even a worker crash mid-call cannot send them twice. Refusals surface as an `ActivityFailure` whose
 * cause is an `ApplicationFailure` typed with the spec code (CONNECTION_NOT_FOUND, CIRCUIT_OPEN, …).
 *
 * @example const result = await executeGatewayCall({ operatorId, connectionId, operation: 'player.verify', params })
 */
export async function executeGatewayCall(input: GatewayCallInput & { limits?: GatewayLimits }): Promise<GatewayCallResult> {
  const { limits = DEFAULT_LIMITS, ...call } = input;
  const prepared = await prepareGatewayCall(call);
  const idempotent = IDEMPOTENT_METHODS.has(prepared.plan.method);
  const startToCloseTimeout = limits.timeoutMs + 5_000;
  const { sendGatewayRequest } = idempotent
    ? proxyLocalActivities<Activities>({
        startToCloseTimeout,
        retry: { maximumAttempts: limits.maxAttempts, initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '2 seconds' },
      })
    : proxyActivities<Activities>({ startToCloseTimeout, retry: { maximumAttempts: 1 } });
  return sendGatewayRequest({ ...call, prepared, limits, idempotent });
}

/** `POST /gateway` runs each call as this workflow and waits for its result. */
export async function gatewayCallWorkflow(input: GatewayCallInput & { limits?: GatewayLimits }): Promise<GatewayCallResult> {
  return executeGatewayCall(input);
}
