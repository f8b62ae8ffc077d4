import { activityInfo, ApplicationFailure } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { Config } from '../../core/config';
import type { Keyring } from '../../core/crypto';
import { CIRCUIT_OPEN_SECONDS } from '../../core/gateway/failures';
import { credentialsContext, outboundAuth, type ConnectionCredentials } from '../../core/gateway/outboundAuth';
import { nextTurnAfter } from '../../core/eventLoop';
import { urlOf } from '../../core/gateway/requestPlan';
import { toCanonicalFields } from '../../core/gateway/schemaMap';
import type { Db } from '../../db/knex';
import { gatewayOutcomeOf, type ActivityMetrics } from '../metrics';
import { pauseForPayloadBudget, type PayloadBudget } from '../payloadBudget';
import { admitCall, recordProviderFailure, recordProviderSuccess, type BreakerAdmission } from '../../db/queries/circuitBreakers';
import { isCleanlyClosed, type GatewayCaches } from './caches';
import { recordGatewayCall } from './record';
import { addressPolicy } from '../../core/gateway/addressPolicy';
import { DestinationNotAllowedError, ResponseTooLargeError, safeFetch, type OutboundResponse } from './safeFetch';
import type { GatewayCallResult } from '../../core/workflowContracts';
import type { SendGatewayRequestInput } from './types';

export interface SendDeps {
  db: Db;
  config: Config;
  logger: Logger;
  keyring: Keyring;
  metrics: ActivityMetrics;
  payloadBudget?: PayloadBudget;
  /** The worker's breakers in memory; every call asks PostgreSQL without them. */
  caches?: GatewayCaches;
}

function parseBody(response: OutboundResponse): unknown {
  if (response.body.length === 0) return null;
  const text = response.body.toString('utf8');
  if (/\bjson\b/i.test(String(response.headers['content-type'] ?? ''))) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The breaker's admission of a call: from memory while the breaker is known closed with nothing counted, else from
 * the one statement that decides it (and claims a half-open trial) for every worker at once.
 */
async function admit(deps: SendDeps, operatorId: string, provider: string, trialLeaseSeconds: number): Promise<BreakerAdmission> {
  const load = () => admitCall(deps.db, operatorId, provider, CIRCUIT_OPEN_SECONDS, trialLeaseSeconds);
  if (!deps.caches) return load();
  return (await deps.caches.breakers.get(`${operatorId}:${provider}`, load, isCleanlyClosed)) ?? load();
}

/**
 * Breaker bookkeeping after the exchange; a failure here is logged, never turned into a failed call. A healthy
 * answer resets what was counted before the call began; a breaker that was clean then needs no write.
 */
async function settleBreaker(deps: SendDeps, input: SendGatewayRequestInput, healthy: boolean, wasClean: boolean): Promise<void> {
  const { operatorId, prepared } = input;
  if (healthy && wasClean) return;
  try {
    if (healthy) await recordProviderSuccess(deps.db, operatorId, prepared.provider);
    else await recordProviderFailure(deps.db, operatorId, prepared.provider, deps.config.GATEWAY_CIRCUIT_FAILURE_THRESHOLD);
    // This worker's next call hears of its own write at once; the others when the notification arrives.
    deps.caches?.breakers.invalidate(operatorId);
  } catch (error) {
    deps.logger.error({ err: { message: (error as Error).message }, provider: prepared.provider }, 'circuit breaker not updated');
  }
}

/**
 * Sends one attempt of a prepared call (spec 4.3): checks the operator's circuit for the provider,
 * decrypts the connection's credentials, applies outbound authentication, sends with the safety rules,
 * and translates a 2xx body back to canonical names. 5xx answers and network failures count against
 * the breaker; for idempotent methods they are thrown (Temporal retries them) until the last attempt,
 * which returns the provider error. Refusals throw non-retryable failures typed with the spec code.
 */
export async function sendGatewayRequest(deps: SendDeps, input: SendGatewayRequestInput): Promise<GatewayCallResult> {
  const budget = deps.payloadBudget;
  if (!budget) return exchange(deps, input, async () => undefined);
  const { operatorId } = input;
  // An operator over its budget of large answers: a POST /gateway caller hears 429 at once, a run's call pauses first.
  const budgetWaitMs = budget.waitMs(operatorId);
  if (budgetWaitMs > 0 && input.caller === 'api') {
    const seconds = Math.ceil(budgetWaitMs / 1000);
    throw ApplicationFailure.create({
      type: 'RATE_LIMITED',
      message: `Large answers of this organisation exceed its budget of ${budget.bytesPerSecond} bytes a second; retry after ${seconds} s`,
      nonRetryable: true,
      details: [{ retryAfterSeconds: seconds }],
    });
  }
  await pauseForPayloadBudget(budget, operatorId);
  const call = budget.reserve(operatorId);
  try {
    return await exchange(deps, input, (bytes) => budget.arrived(call, bytes));
  } finally {
    budget.release(call);
  }
}

/** The exchange itself; `arrived` hears the answer's size before it is worked on. */
async function exchange(deps: SendDeps, input: SendGatewayRequestInput, arrived: (bytes: number) => Promise<void>): Promise<GatewayCallResult> {
  const { operatorId, connectionId, prepared, limits, delivery } = input;
  const { plan } = prepared;
  const attempt = activityInfo().attempt;
  const retryable = input.idempotent && attempt < limits.maxAttempts;
  const record = (ok: boolean, status: number | null, latencyMs: number, code?: string) => {
    deps.metrics.gatewayCall(prepared.provider, gatewayOutcomeOf(ok, status, code));
    return recordGatewayCall(deps, { ...input, method: plan.method, path: plan.pathTemplate, status, latencyMs, ok, code, attempts: attempt });
  };
  const trialLeaseSeconds = Math.ceil(limits.timeoutMs / 1000) + 5;
  const breaker = await admit(deps, operatorId, prepared.provider, trialLeaseSeconds);
  if (breaker.admission === 'open') {
    await record(false, null, 0, 'CIRCUIT_OPEN');
    throw ApplicationFailure.create({
      type: 'CIRCUIT_OPEN',
      message: `Circuit open for ${prepared.provider}; retry after ${CIRCUIT_OPEN_SECONDS} s`,
      nonRetryable: true,
    });
  }
  const credentials = deps.keyring.decryptJson(input.sealedCredentials, credentialsContext(operatorId, connectionId)) as ConnectionCredentials;

  const bodyText = plan.body === undefined ? undefined : JSON.stringify(plan.body);
  const auth = outboundAuth({ schemes: prepared.securitySchemes, requirements: plan.security, credentials, bodyText: bodyText ?? '' });
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'identity',
    'user-agent': 'operator-platform-gateway',
    'idempotency-key': input.callId,
    ...plan.headers,
    ...(bodyText !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(bodyText)) } : {}),
    ...auth.headers,
  };

  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let response: OutboundResponse;
  try {
    response = await safeFetch(
      { method: plan.method, url: urlOf(plan, auth.query), headers, body: bodyText, credentialHeaders: Object.keys(auth.headers) },
      {
        timeoutMs: limits.timeoutMs,
        maxBytes: deps.config.GATEWAY_MAX_RESPONSE_BYTES,
        isAllowedAddress: addressPolicy(deps.config.GATEWAY_ALLOW_PRIVATE_NETWORKS),
        ...(delivery ? { onDispatch: () => (delivery.dispatched = true) } : {}),
      },
    );
  } catch (error) {
    const latencyMs = elapsed();
    // A refused redirect or an oversized body is the supplier's answer, refused: it did get the request.
    if (delivery && (error instanceof ResponseTooLargeError || (error instanceof DestinationNotAllowedError && error.viaRedirect))) delivery.answered = true;
    if (error instanceof DestinationNotAllowedError && !error.viaRedirect) {
      await record(false, null, latencyMs, 'DESTINATION_NOT_ALLOWED');
      throw ApplicationFailure.create({ type: 'DESTINATION_NOT_ALLOWED', message: error.message, nonRetryable: true });
    }
    const message = error instanceof Error ? error.message : 'provider request failed';
    if (error instanceof DestinationNotAllowedError || error instanceof ResponseTooLargeError) {
      await settleBreaker(deps, input, true, breaker.clean);
      await record(false, null, latencyMs, 'PROVIDER_ERROR');
      return { ok: false, status: null, data: null, message: `Provider response refused: ${message}`, providerLatencyMs: latencyMs, attempts: attempt };
    }
    await settleBreaker(deps, input, false, breaker.clean);
    if (retryable) throw new Error(`provider unreachable: ${message}`, { cause: error });
    await record(false, null, latencyMs, !input.idempotent && delivery?.dispatched ? 'GATEWAY_OUTCOME_UNKNOWN' : 'PROVIDER_UNREACHABLE');
    return { ok: false, status: null, data: null, message: `Provider unreachable: ${message}`, providerLatencyMs: latencyMs, attempts: attempt };
  }

  const latencyMs = elapsed();
  if (delivery) delivery.answered = true;
  await settleBreaker(deps, input, response.status < 500, breaker.clean);
  if (response.status >= 500 && retryable) throw new Error(`provider answered ${response.status}`);
  const ok = response.status >= 200 && response.status < 300;
  await record(ok, response.status, latencyMs);
  const size = response.body.length;
  await arrived(size);
  await nextTurnAfter(size);
  const body = parseBody(response);
  await nextTurnAfter(size);
  if (ok) {
    const data = toCanonicalFields(body, prepared.schemaMap);
    await nextTurnAfter(size);
    return { ok, status: response.status, data, providerLatencyMs: latencyMs, attempts: attempt };
  }
  return { ok, status: response.status, data: body, message: `Provider returned HTTP ${response.status}`, providerLatencyMs: latencyMs, attempts: attempt };
}
