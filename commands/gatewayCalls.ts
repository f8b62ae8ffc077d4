/**
 * The API's writes to a `POST /gateway` call's record (docs/gateway.md): collecting an answer the worker handed over,
 * and giving up on a call whose answer will not come. The send itself records its outcome in its activity
 * (activities/gateway/claim.ts).
 */
import { outcomeUnknownMessage } from '../core/gateway/callIdempotency';
import { finishWithoutAnswer, takeAnswer, type StoredOutcome } from '../db/queries/gatewayCalls';
import type { CommandDeps } from './deps';

export interface GatewayCallRef {
  operatorId: string;
  callId: string;
}

/**
 * The answer the worker stored for the API rather than pass it through Temporal (a large one): a GET's, PUT's or
 * DELETE's is removed as it is read, a POST's or PATCH's stays for its readers and Idempotency-Key retries. Undefined
 * when there is none.
 */
export async function collectGatewayAnswer(deps: Pick<CommandDeps, 'db' | 'keyring'>, call: GatewayCallRef): Promise<StoredOutcome | undefined> {
  return takeAnswer(deps.db, deps.keyring, call.operatorId, call.callId);
}

/**
 * Gives up on a POST or PATCH still `sending` whose answer will not come (its caller stopped waiting, or the process
 * that sent it died): it becomes `outcome_unknown` with `GATEWAY_OUTCOME_UNKNOWN`, so its next reader and every retry
 * under its Idempotency-Key hear the same and nothing sends it twice. An answer stored meanwhile wins.
 */
export async function giveUpOnGatewayCall(deps: Pick<CommandDeps, 'db'>, call: GatewayCallRef): Promise<void> {
  await finishWithoutAnswer(deps.db, call, { state: 'outcome_unknown', code: 'GATEWAY_OUTCOME_UNKNOWN', message: outcomeUnknownMessage(call.callId) });
}
