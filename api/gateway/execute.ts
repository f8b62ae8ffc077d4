import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/client';
import type { Context } from 'koa';
import type { GatewayCallInput, GatewayCallResult } from '../../activities/gateway/types';
import { CIRCUIT_OPEN_SECONDS, GATEWAY_FAILURE_STATUS, isGatewayFailureCode, type GatewayFailureCode } from '../../core/gateway/failures';
import type { gatewayCallWorkflow } from '../../workflows';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';

/** The gateway refusal inside a failed workflow (WorkflowFailedError → ActivityFailure → ApplicationFailure), if any. */
export function gatewayFailureOf(error: unknown): { code: GatewayFailureCode; message: string } | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof ApplicationFailure && isGatewayFailureCode(current.type)) return { code: current.type, message: current.message };
    current = current.cause;
  }
  return null;
}

/**
 * Runs one gateway call as a `gatewayCallWorkflow` and waits for it (the caller's request stays
 * synchronous). Resolves to the provider outcome; throws the Temporal error for refusals and faults.
 */
export async function runGatewayCall(deps: AppDeps, call: GatewayCallInput): Promise<GatewayCallResult> {
  const limits = { timeoutMs: deps.config.GATEWAY_TIMEOUT_MS, maxAttempts: deps.config.GATEWAY_MAX_ATTEMPTS };
  const perAttemptMs = limits.timeoutMs + 5_000 + 2_000;
  return deps.temporal.client.workflow.execute<typeof gatewayCallWorkflow>('gatewayCallWorkflow', {
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    workflowId: `gateway-${call.operatorId}-${randomUUID()}`,
    args: [{ ...call, limits }],
    workflowExecutionTimeout: limits.maxAttempts * perAttemptMs + 15_000,
  });
}

/** Spec 4.3 response shapes: 200 with translated data, 502 with the provider's body, 503 with Retry-After, coded errors otherwise. */
export async function respondWithGatewayCall(deps: AppDeps, ctx: Context, call: GatewayCallInput): Promise<void> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  let result: GatewayCallResult;
  try {
    result = await runGatewayCall(deps, call);
  } catch (error) {
    const failure = gatewayFailureOf(error);
    if (!failure) throw new AppError(500, 'INTERNAL_ERROR', 'Internal server error', { cause: error });
    if (failure.code !== 'CIRCUIT_OPEN') throw new AppError(GATEWAY_FAILURE_STATUS[failure.code], failure.code, failure.message);
    ctx.status = 503;
    ctx.set('Retry-After', String(CIRCUIT_OPEN_SECONDS));
    ctx.body = { success: false, error: { code: failure.code, message: failure.message }, latencyMs: latency() };
    return;
  }
  if (result.ok) {
    ctx.body = { success: true, data: result.data, latencyMs: latency() };
    return;
  }
  ctx.status = 502;
  ctx.body = { success: false, error: { code: 'PROVIDER_ERROR', message: result.message }, data: result.data, latencyMs: latency() };
}
