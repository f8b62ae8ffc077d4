import { TimeoutFailure } from '@temporalio/common';
import type { Context } from 'koa';
import { sha256Hex } from '../../core/apiKeyToken';
import { CIRCUIT_OPEN_SECONDS, GATEWAY_FAILURE_STATUS } from '../../core/gateway/failures';
import { prefixedId } from '../../core/ids';
import { collectGatewayAnswer, giveUpOnGatewayCall } from '../../commands/gatewayCalls';
import { findGatewayCall, outcomeOf, type StoredOutcome } from '../../db/queries/gatewayCalls';
import { CallDeadlineError, LaneStalledError, runGatewayCall } from '../../temporal/gatewayCalls';
import type { GatewayCallInput } from '../../core/workflowContracts';
import { isDependencyOutage, serviceUnavailable } from '../dependencyOutage';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { describeIssues, defaultValidationError } from '../middleware/validate';
import { idempotencyKeyOf } from '../operator-data-api/idempotency';
import { earlierCall, keyMismatch, outcomeUnknown } from './idempotency';
import { GatewayBody } from './schema';
import { gateway } from './area';

/** Names the call in every answer, so a client can read its outcome later (`GET /gateway/calls/:callId`). */
export const CALL_ID_HEADER = 'Gateway-Call-Id';

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

/** A client's Idempotency-Key names one call of its operator for as long as the outcome is kept; else every request is a new call. */
const callIdOf = (operatorId: string, key: string | undefined) =>
  key === undefined ? prefixedId('gwc') : `gwc_${sha256Hex(`${operatorId}\n${key}`).slice(0, 32)}`;

/** Why the caller may simply try again: the call was certainly not sent, or its method is safe to repeat. */
function retryable(error: unknown): boolean {
  for (let current = error, depth = 0; depth < 6 && current instanceof Error; depth += 1, current = current.cause) {
    if (current instanceof CallDeadlineError || current instanceof LaneStalledError || current instanceof TimeoutFailure) return true;
    if ((current as { type?: unknown }).type === 'CALL_EXPIRED') return true;
  }
  return isDependencyOutage(error);
}

/** Stands for the answer in a body serialized around it. */
const DATA = '\u0000answer\u0000';

/**
 * Spec 4.3 response shapes for a provider outcome: 200 with translated data, 502 with the provider's body. A stored
 * answer (`dataJson`) is written into the body as the text it is: a 3 MB answer is neither parsed nor serialized here.
 */
function respondWith(
  ctx: Context,
  outcome: Omit<StoredOutcome, 'dataJson'> & { data?: unknown; dataJson?: string; replayed?: boolean },
  latencyMs: number,
): void {
  if (outcome.replayed) ctx.set('Idempotent-Replayed', 'true');
  const body = outcome.ok
    ? { success: true, data: DATA, latencyMs }
    : { success: false, error: { code: 'PROVIDER_ERROR', message: outcome.message ?? 'Provider error' }, data: DATA, latencyMs };
  if (!outcome.ok) ctx.status = 502;
  if (outcome.dataJson === undefined) {
    ctx.body = { ...body, data: outcome.data };
    return;
  }
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body).replace(JSON.stringify(DATA), () => outcome.dataJson!);
}

/**
 * What the client hears when the call's outcome did not come back: the recorded answer if there is one by now; 504
 * `GATEWAY_OUTCOME_UNKNOWN` naming the call id while its POST or PATCH is (or was) on its way — retrying could send
 * it twice, so the call is recorded as `outcome_unknown` and a retry hears the same; a 503 to retry when nothing was
 * sent (a POST is not sent after `sendBy`, one `not_sent` freed its key, and a GET, PUT or DELETE is safe to repeat).
 */
async function settleUnknown(deps: AppDeps, ctx: Context, call: GatewayCallInput, error: unknown, latencyMs: number): Promise<void> {
  const row = await findGatewayCall(deps.db, call.operatorId, call.callId).catch((lookup: unknown) => {
    throw serviceUnavailable(lookup);
  });
  if (row?.state === 'answered') return respondWith(ctx, await outcomeOf(row, deps.keyring), latencyMs);
  if (row?.state === 'sending' || row?.state === 'outcome_unknown') {
    if (row.state === 'sending') await giveUpOnGatewayCall(deps, call).catch(() => undefined);
    throw outcomeUnknown(call.callId, error);
  }
  if (retryable(error)) throw serviceUnavailable(error);
  throw new AppError(500, 'INTERNAL_ERROR', 'Internal server error', { cause: error });
}

/**
 * `POST /gateway`: the body is checked here rather than by `validate`, so that a blank field counts as missing. With an
 * `Idempotency-Key`, the call id is derived from it and an earlier call under it decides first (`earlierCall`): an
 * answered one is replayed (header `Idempotent-Replayed`) and not sent again.
 */
export const executeHandler = gateway.handler({ raw: ['body'] }, async ({ deps, ctx, principal, raw }) => {
  const input = gatewayInput(raw.body);
  const operatorId = principal.operatorId;
  const key = idempotencyKeyOf(ctx);
  const call: GatewayCallInput = { operatorId, ...input, callId: callIdOf(operatorId, key), caller: 'api' };
  ctx.set(CALL_ID_HEADER, call.callId);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const limits = { timeoutMs: deps.config.GATEWAY_TIMEOUT_MS, maxAttempts: deps.config.GATEWAY_MAX_ATTEMPTS };
  const earlier = key === undefined ? undefined : await earlierCall(deps, call, key, limits);
  if (earlier) return respondWith(ctx, { ...(await outcomeOf(earlier, deps.keyring)), replayed: true }, latency());
  let outcome: Awaited<ReturnType<typeof runGatewayCall>>;
  try {
    outcome = await runGatewayCall(deps.temporal, call, limits);
  } catch (error) {
    return settleUnknown(deps, ctx, call, error, latency());
  }
  if (outcome.kind === 'refused') {
    if (outcome.code === 'GATEWAY_OUTCOME_UNKNOWN') throw outcomeUnknown(call.callId);
    if (outcome.code === 'IDEMPOTENCY_KEY_MISMATCH') throw keyMismatch(key);
    const headers = outcome.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(outcome.retryAfterSeconds) };
    if (outcome.code !== 'CIRCUIT_OPEN') throw new AppError(GATEWAY_FAILURE_STATUS[outcome.code], outcome.code, outcome.message, headers ? { headers } : {});
    ctx.status = 503;
    ctx.set('Retry-After', String(CIRCUIT_OPEN_SECONDS));
    ctx.body = { success: false, error: { code: outcome.code, message: outcome.message }, latencyMs: latency() };
    return;
  }
  const { result } = outcome;
  const stored = result.answerStored ? await collectGatewayAnswer(deps, { operatorId, callId: call.callId }) : undefined;
  if (result.answerStored && !stored) throw new AppError(500, 'INTERNAL_ERROR', 'Internal server error');
  const answer = stored ?? {
    ok: result.ok,
    status: result.status,
    data: result.data,
    message: result.ok ? null : result.message,
    latencyMs: result.providerLatencyMs,
  };
  respondWith(ctx, { ...answer, ...(result.replayed ? { replayed: true } : {}) }, latency());
});
