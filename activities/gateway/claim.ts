import { ApplicationFailure } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { Keyring } from '../../core/crypto';
import { gatewayRequestHash, outcomeUnknownMessage } from '../../core/gateway/callIdempotency';
import type { GatewayCallInput, GatewayCallResult } from '../../core/workflowContracts';
import type { Db } from '../../db/knex';
import { beginSend, findGatewayCall, finishWithoutAnswer, outcomeOf, SENT_CALL_RETENTION_MS, storeOutcome } from '../../db/queries/gatewayCalls';
import type { Delivery } from './types';

interface ClaimDeps {
  db: Db;
  keyring: Keyring;
  logger: Logger;
}

/** The failure every caller of a call that went out unanswered hears, first or on retry (`GATEWAY_OUTCOME_UNKNOWN`, 504). */
const outcomeUnknown = (callId: string) =>
  ApplicationFailure.create({ type: 'GATEWAY_OUTCOME_UNKNOWN', message: outcomeUnknownMessage(callId), nonRetryable: true });

/** Why a call that threw was not sent: the gateway's code when it refused it, else a generic one. */
function refusalOf(error: unknown): { code: string; message: string } {
  if (error instanceof ApplicationFailure && error.type) return { code: error.type, message: error.message };
  return { code: 'NOT_SENT', message: error instanceof Error ? error.message : 'not sent' };
}

/**
 * What a second send of a claimed call id gets instead of being sent: another request under the same key is
 * `IDEMPOTENCY_KEY_MISMATCH`; an answered call its answer again (`replayed`); one that went out unanswered
 * `GATEWAY_OUTCOME_UNKNOWN`; one still on its way `GATEWAY_CALL_IN_PROGRESS`.
 */
async function earlierOutcome(deps: ClaimDeps, input: GatewayCallInput, requestHash: string): Promise<GatewayCallResult> {
  const earlier = await findGatewayCall(deps.db, input.operatorId, input.callId);
  if (earlier?.request_hash && earlier.request_hash !== requestHash)
    throw ApplicationFailure.create({ type: 'IDEMPOTENCY_KEY_MISMATCH', message: 'This Idempotency-Key was used for another request', nonRetryable: true });
  if (earlier?.state === 'outcome_unknown') throw outcomeUnknown(input.callId);
  if (earlier?.state !== 'answered')
    throw ApplicationFailure.create({ type: 'GATEWAY_CALL_IN_PROGRESS', message: `Call ${input.callId} is already being sent`, nonRetryable: true });
  const stored = await outcomeOf(earlier, deps.keyring);
  const base = {
    status: stored.status,
    data: JSON.parse(stored.dataJson) as unknown,
    providerLatencyMs: stored.latencyMs,
    attempts: 0,
    replayed: true as const,
  };
  return stored.ok ? { ...base, ok: true, status: stored.status ?? 200 } : { ...base, ok: false, message: stored.message ?? '' };
}

/**
 * Sends a POST or PATCH of `POST /gateway` under its claimed call id, and leaves the call in a final state whatever
 * happens: answered (stored, replayed to retries), `not_sent` when no byte can have reached the supplier (a refusal, a
 * connection never opened: the key is free again, as Stripe keeps no result for a request it never executed), or
 * `outcome_unknown` when it went out and no answer came (a timeout, a reset): then it throws
 * `GATEWAY_OUTCOME_UNKNOWN` rather than pass off "unreachable" as the supplier's answer. An answer replayed from an
 * earlier send says `replayed`.
 */
export async function sendClaimed(
  deps: ClaimDeps,
  input: GatewayCallInput & { method: string },
  send: (delivery: Delivery) => Promise<GatewayCallResult>,
): Promise<GatewayCallResult> {
  const requestHash = gatewayRequestHash(input);
  const call = { operatorId: input.operatorId, callId: input.callId, connectionId: input.connectionId, operation: input.operation, method: input.method };
  if (!(await beginSend(deps.db, { ...call, requestHash }))) return earlierOutcome(deps, input, requestHash);
  const delivery: Delivery = { dispatched: false, answered: false };
  const unanswered = async (end: Parameters<typeof finishWithoutAnswer>[2]) => {
    await finishWithoutAnswer(deps.db, call, end).catch((error: unknown) => {
      deps.logger.error({ err: { message: (error as Error).message }, callId: call.callId, state: end.state }, 'gateway call not finished');
    });
  };
  let result: GatewayCallResult;
  try {
    result = await send(delivery);
  } catch (error) {
    if (delivery.dispatched) {
      await unanswered({ state: 'outcome_unknown', code: 'GATEWAY_OUTCOME_UNKNOWN', message: outcomeUnknownMessage(call.callId) });
      throw outcomeUnknown(call.callId);
    }
    await unanswered({ state: 'not_sent', ...refusalOf(error) });
    throw error;
  }
  if (!delivery.dispatched) {
    await unanswered({ state: 'not_sent', code: 'PROVIDER_UNREACHABLE', message: result.ok ? 'not sent' : result.message });
    return result;
  }
  if (!delivery.answered) {
    await unanswered({ state: 'outcome_unknown', code: 'GATEWAY_OUTCOME_UNKNOWN', message: outcomeUnknownMessage(call.callId) });
    throw outcomeUnknown(call.callId);
  }
  await storeOutcome(
    deps.db,
    deps.keyring,
    { ...call, keepMs: SENT_CALL_RETENTION_MS },
    {
      ok: result.ok,
      status: result.status,
      dataJson: JSON.stringify(result.data ?? null),
      message: result.ok ? null : result.message,
      latencyMs: result.providerLatencyMs,
    },
  );
  return result;
}
