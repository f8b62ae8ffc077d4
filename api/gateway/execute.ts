import type { Context } from 'koa';
import { CIRCUIT_OPEN_SECONDS, GATEWAY_FAILURE_STATUS } from '../../core/gateway/failures';
import { runGatewayCall } from '../../temporal/gatewayCalls';
import type { GatewayCallInput } from '../../core/workflowContracts';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';

/** Spec 4.3 response shapes: 200 with translated data, 502 with the provider's body, 503 with Retry-After, coded errors otherwise. */
export async function respondWithGatewayCall(deps: AppDeps, ctx: Context, call: GatewayCallInput): Promise<void> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const limits = { timeoutMs: deps.config.GATEWAY_TIMEOUT_MS, maxAttempts: deps.config.GATEWAY_MAX_ATTEMPTS };
  const outcome = await runGatewayCall(deps.temporal, call, limits).catch((error: unknown) => {
    throw new AppError(500, 'INTERNAL_ERROR', 'Internal server error', { cause: error });
  });
  if (outcome.kind === 'refused') {
    if (outcome.code !== 'CIRCUIT_OPEN') throw new AppError(GATEWAY_FAILURE_STATUS[outcome.code], outcome.code, outcome.message);
    ctx.status = 503;
    ctx.set('Retry-After', String(CIRCUIT_OPEN_SECONDS));
    ctx.body = { success: false, error: { code: outcome.code, message: outcome.message }, latencyMs: latency() };
    return;
  }
  const { result } = outcome;
  if (result.ok) {
    ctx.body = { success: true, data: result.data, latencyMs: latency() };
    return;
  }
  ctx.status = 502;
  ctx.body = { success: false, error: { code: 'PROVIDER_ERROR', message: result.message }, data: result.data, latencyMs: latency() };
}
