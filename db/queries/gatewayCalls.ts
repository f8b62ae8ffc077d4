import type { Keyring } from '../../core/crypto';
import { openText, sealText } from '../../core/sealedText';
import type { Db } from '../knex';

/** How long a POST's or PATCH's outcome stays readable (`GET /gateway/calls/:callId`, a retry with its Idempotency-Key). */
export const SENT_CALL_RETENTION_MS = 24 * 60 * 60_000;
/** How long a large answer waits for the API to read it; a reader takes it at once. */
export const ANSWER_HANDOFF_MS = 10 * 60_000;

export interface GatewayCallRow {
  id: string;
  operator_id: string;
  connection_id: string;
  operation: string;
  method: string;
  state: 'sending' | 'answered';
  provider_status: number | null;
  ok: boolean | null;
  message: string | null;
  latency_ms: number | null;
  answer: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** A call's outcome as stored: the provider's status and its translated answer as JSON text, opened. */
export interface StoredOutcome {
  ok: boolean;
  status: number | null;
  dataJson: string;
  message: string | null;
  latencyMs: number;
}

const answerContext = (operatorId: string, callId: string) => `gateway-call:${operatorId}:${callId}`;

interface CallKey {
  operatorId: string;
  callId: string;
}

/**
 * Claims a call id for sending: true when this is its first send, false when it was begun before (a retried request
 * with the same Idempotency-Key, a duplicated activity). The one place a POST or PATCH is allowed through.
 */
export async function beginSend(db: Db, call: CallKey & { connectionId: string; operation: string; method: string }): Promise<boolean> {
  const inserted = await db('gateway_calls')
    .insert({
      id: call.callId,
      operator_id: call.operatorId,
      connection_id: call.connectionId,
      operation: call.operation,
      method: call.method,
      state: 'sending',
      expires_at: new Date(Date.now() + SENT_CALL_RETENTION_MS),
    })
    .onConflict(['operator_id', 'id'])
    .ignore()
    .returning('id');
  return inserted.length === 1;
}

/**
 * Stores a call's outcome, its answer sealed (deflated first when large): after a send (`beginSend`), or for a large
 * answer the API collects (`takeAnswer`).
 */
export async function storeOutcome(
  db: Db,
  keyring: Keyring,
  call: CallKey & { connectionId: string; operation: string; method: string; keepMs: number },
  outcome: StoredOutcome,
): Promise<void> {
  const row = {
    id: call.callId,
    operator_id: call.operatorId,
    connection_id: call.connectionId,
    operation: call.operation,
    method: call.method,
    state: 'answered',
    provider_status: outcome.status,
    ok: outcome.ok,
    message: outcome.message,
    latency_ms: outcome.latencyMs,
    answer: await sealText(keyring, outcome.dataJson, answerContext(call.operatorId, call.callId)),
    finished_at: db.fn.now(),
    expires_at: new Date(Date.now() + call.keepMs),
  };
  await db('gateway_calls').insert(row).onConflict(['operator_id', 'id']).merge();
}

export async function findGatewayCall(db: Db, operatorId: string, callId: string): Promise<GatewayCallRow | undefined> {
  return db<GatewayCallRow>('gateway_calls').where({ operator_id: operatorId, id: callId }).where('expires_at', '>', db.fn.now()).first();
}

/** The stored outcome of an answered call, its answer opened. */
export async function outcomeOf(row: GatewayCallRow, keyring: Keyring): Promise<StoredOutcome> {
  return {
    ok: row.ok === true,
    status: row.provider_status,
    dataJson: row.answer === null ? 'null' : await openText(keyring, row.answer, answerContext(row.operator_id, row.id)),
    message: row.message,
    latencyMs: row.latency_ms ?? 0,
  };
}

/**
 * The stored answer of a call the worker handed over (`answerStored`): a GET's, PUT's or DELETE's is read once and
 * deleted; a POST's or PATCH's stays for `GET /gateway/calls/:callId` and Idempotency-Key retries.
 */
export async function takeAnswer(db: Db, keyring: Keyring, operatorId: string, callId: string): Promise<StoredOutcome | undefined> {
  const key = { operator_id: operatorId, id: callId, state: 'answered' };
  const [taken] = (await db('gateway_calls').where(key).whereIn('method', ['GET', 'PUT', 'DELETE']).delete().returning('*')) as GatewayCallRow[];
  const row = taken ?? (await db<GatewayCallRow>('gateway_calls').where(key).first());
  return row && (await outcomeOf(row, keyring));
}

/** Deletes calls past their retention (the daily retention run). */
export async function purgeGatewayCalls(db: Db): Promise<number> {
  return db('gateway_calls').where('expires_at', '<', db.fn.now()).delete();
}
