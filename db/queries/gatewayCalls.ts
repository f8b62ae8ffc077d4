import type { Keyring } from '../../core/crypto';
import { openText, sealText } from '../../core/sealedText';
import type { Db } from '../knex';

/** How long a POST's or PATCH's outcome stays readable (`GET /gateway/calls/:callId`, a retry with its Idempotency-Key). */
export const SENT_CALL_RETENTION_MS = 24 * 60 * 60_000;
/** How long a large answer waits for the API to read it; a reader takes it at once. */
export const ANSWER_HANDOFF_MS = 10 * 60_000;

/**
 * `sending`: claimed, on its way; `answered`: the supplier's answer is stored; `not_sent`: nothing reached the supplier,
 * the key is free again; `outcome_unknown`: it went out and no answer came back, the key stays taken.
 */
export type GatewayCallState = 'sending' | 'answered' | 'not_sent' | 'outcome_unknown';

export interface GatewayCallRow {
  id: string;
  operator_id: string;
  connection_id: string;
  operation: string;
  method: string;
  state: GatewayCallState;
  provider_status: number | null;
  ok: boolean | null;
  message: string | null;
  latency_ms: number | null;
  answer: string | null;
  /** What the call was (`gatewayRequestHash`); null for large answers handed over and rows from before it was kept. */
  request_hash: string | null;
  /** Why a call is `not_sent` or `outcome_unknown`: the gateway's code (`CIRCUIT_OPEN`, `GATEWAY_OUTCOME_UNKNOWN`, …). */
  code: string | null;
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
 * Claims a call id for sending: true when this is its first send — or a retry of one that was never sent (`not_sent`)
 * or has expired —, false when it was begun before (a retried request with the same Idempotency-Key, a duplicated
 * activity). The one place a POST or PATCH is allowed through.
 */
export async function beginSend(db: Db, call: CallKey & { connectionId: string; operation: string; method: string; requestHash: string }): Promise<boolean> {
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `INSERT INTO gateway_calls AS gc (id, operator_id, connection_id, operation, method, state, request_hash, expires_at)
     VALUES (?, ?, ?, ?, ?, 'sending', ?, ?)
     ON CONFLICT (operator_id, id) DO UPDATE SET
       connection_id = EXCLUDED.connection_id, operation = EXCLUDED.operation, method = EXCLUDED.method, state = 'sending',
       request_hash = EXCLUDED.request_hash, code = NULL, provider_status = NULL, ok = NULL, message = NULL, latency_ms = NULL,
       answer = NULL, created_at = now(), finished_at = NULL, expires_at = EXCLUDED.expires_at
     WHERE gc.state = 'not_sent' OR gc.expires_at <= now()
     RETURNING gc.id`,
    [call.callId, call.operatorId, call.connectionId, call.operation, call.method, call.requestHash, new Date(Date.now() + SENT_CALL_RETENTION_MS)],
  );
  return rows.length === 1;
}

/**
 * Ends a claimed call that has no answer: `not_sent` frees its key for a retry, `outcome_unknown` keeps it, so the
 * retry is told what the first caller was told. Only a call still `sending` is changed: an answer stored meanwhile wins.
 */
export async function finishWithoutAnswer(db: Db, call: CallKey, end: { state: 'not_sent' | 'outcome_unknown'; code: string; message: string }): Promise<void> {
  await db('gateway_calls')
    .where({ operator_id: call.operatorId, id: call.callId, state: 'sending' })
    .update({ state: end.state, code: end.code, message: end.message, finished_at: db.fn.now() });
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
    code: null,
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
