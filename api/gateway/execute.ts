import type { Context } from 'koa';
import { CIRCUIT_OPEN_SECONDS, GATEWAY_FAILURE_STATUS } from '../../core/gateway/failures';
import { runGatewayCall } from '../../temporal/gatewayCalls';
import type { GatewayCallInput } from '../../core/workflowContracts';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import { describeIssues, defaultValidationError } from '../middleware/validate';
import { GatewayBody } from './schema';

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** `MISSING_FIELDS` when connectionId or operation is absent or blank (spec 7.3), `VALIDATION_FAILED` for other bad input. */
function gatewayInput(body: unknown) {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const missing = ['connectionId', 'operation'].filter((field) => blank(fields[field]));
  if (missing.length > 0) {
    throw new AppError(400, 'MISSING_FIELDS', `Missing required fields: ${missing.join(', ')}`, {
      details: missing.map((field) => ({ field, message: 'is required' })),
    });
  }
  const parsed = GatewayBody.safeParse(body);
  if (!parsed.success) throw defaultValidationError(describeIssues(parsed.error, body));
  return { connectionId: parsed.data.connectionId, operation: parsed.data.operation.trim(), params: parsed.data.params ?? undefined };
}

/** `POST /gateway`: the body is checked here rather than by `validate`, so that a blank field counts as missing. */
export async function executeHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const input = gatewayInput(ctx.request.body);
  await respondWithGatewayCall(deps, ctx, { operatorId: operatorOf(ctx), ...input });
}

/** Spec 4.3 response shapes: 200 with translated data, 502 with the provider's body, 503 with Retry-After, coded errors otherwise. */
async function respondWithGatewayCall(deps: AppDeps, ctx: Context, call: GatewayCallInput): Promise<void> {
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
