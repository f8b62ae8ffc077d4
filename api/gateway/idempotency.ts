import { gatewayRequestHash, outcomeUnknownMessage } from '../../core/gateway/callIdempotency';
import type { GatewayCallInput, GatewayLimits } from '../../core/workflowContracts';
import { giveUpOnGatewayCall } from '../../commands/gatewayCalls';
import { findGatewayCall, type GatewayCallRow } from '../../db/queries/gatewayCalls';
import { gatewayCallDeadlineMs } from '../../temporal/gatewayCalls';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';

/** 422, as Stripe answers it: a key names one request, and silently replaying another's answer would mislead. */
export function keyMismatch(key: string | undefined): AppError {
  return new AppError(
    422,
    'IDEMPOTENCY_KEY_MISMATCH',
    `Idempotency-Key '${key ?? ''}' was already used with a different request (connection, operation or params); use a new Idempotency-Key for a new request`,
  );
}

/** 504 naming the call: it went out and its answer did not come back, so it is read, never sent again. */
export function outcomeUnknown(callId: string, cause?: unknown): AppError {
  return new AppError(504, 'GATEWAY_OUTCOME_UNKNOWN', outcomeUnknownMessage(callId), { details: { callId }, ...(cause === undefined ? {} : { cause }) });
}

/** The request a row was claimed for differs from this one; rows from before hashes were kept compare what they hold. */
function otherRequest(row: GatewayCallRow, call: GatewayCallInput): boolean {
  if (row.request_hash) return row.request_hash !== gatewayRequestHash(call);
  return row.connection_id !== call.connectionId || row.operation !== call.operation;
}

/**
 * What an earlier call under the same Idempotency-Key decides before anything is sent: nothing (no call, or one that
 * was `not_sent` — the key is free, Stripe-like, whatever the new request is) → undefined, send it; an answered call
 * → its row, to replay; another request → 422 `IDEMPOTENCY_KEY_MISMATCH`; one that went out unanswered → 504
 * `GATEWAY_OUTCOME_UNKNOWN`; one on its way → 409 `GATEWAY_CALL_IN_PROGRESS`, unless it has been `sending` longer
 * than any caller waits (its API process died): then it is given up as outcome unknown.
 */
export async function earlierCall(deps: AppDeps, call: GatewayCallInput, key: string, limits: GatewayLimits): Promise<GatewayCallRow | undefined> {
  const earlier = await findGatewayCall(deps.db, call.operatorId, call.callId);
  if (!earlier || earlier.state === 'not_sent') return undefined;
  if (otherRequest(earlier, call)) throw keyMismatch(key);
  if (earlier.state === 'answered') return earlier;
  if (earlier.state === 'outcome_unknown') throw outcomeUnknown(call.callId);
  if (Date.now() - earlier.created_at.getTime() > gatewayCallDeadlineMs(limits)) {
    await giveUpOnGatewayCall(deps, call);
    throw outcomeUnknown(call.callId);
  }
  throw new AppError(409, 'GATEWAY_CALL_IN_PROGRESS', `Call ${call.callId} is already being sent`);
}
