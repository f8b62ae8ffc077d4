import type { Knex } from 'knex';
import type { Keyring } from '../../core/crypto';
import { chunksOf, isTruncatedValue, type ApartValue, type ValuePart } from '../../core/automations/runValues';
import type { NodeResult } from '../../core/automations/types';
import { openText, sealText } from '../../core/sealedText';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

const contextOf = (operatorId: string, runId: string, nodeId: string, part: ValuePart, seq: number) =>
  `${operatorId}:run:${runId}:value:${nodeId}:${part}:${seq}`;

/**
 * Stores one step value apart from its run record (core/automations/runValues.ts) in one statement, its chunks each
 * sealed on their own. A finish retried, or stored by two callers at once, writes the same chunks again: the first ones stay.
 */
export async function storeRunValue(db: Runner, keyring: Keyring, operatorId: string, runId: string, value: ApartValue): Promise<void> {
  const rows = [];
  for (const [seq, chunk] of chunksOf(value.json).entries()) {
    const sealed = await sealText(keyring, chunk, contextOf(operatorId, runId, value.nodeId, value.part, seq));
    rows.push({ operator_id: operatorId, run_id: runId, node_id: value.nodeId, part: value.part, seq, bytes: value.bytes, sealed });
  }
  await db('automation_run_values').insert(rows).onConflict(['run_id', 'node_id', 'part', 'seq']).ignore();
}

/** The size of a step value stored apart and its number of chunks; undefined when the run has none for that step. */
export async function runValueSize(
  db: Runner,
  operatorId: string,
  runId: string,
  nodeId: string,
  part: ValuePart,
): Promise<{ bytes: number; chunks: number } | undefined> {
  const row = (await db('automation_run_values')
    .where({ operator_id: operatorId, run_id: runId, node_id: nodeId, part })
    .select(db.raw('max(bytes)::bigint AS bytes'), db.raw('count(*)::int AS chunks'))
    .first()) as { bytes: string | null; chunks: number } | undefined;
  return row && row.bytes !== null ? { bytes: Number(row.bytes), chunks: row.chunks } : undefined;
}

/**
 * The JSON of a step value stored apart, one opened chunk at a time (one row read per chunk): what the streaming
 * endpoint sends, never holding more than {@link CHUNK_CHARS} of it.
 */
export async function* runValueChunks(
  db: Runner,
  keyring: Keyring,
  operatorId: string,
  runId: string,
  nodeId: string,
  part: ValuePart,
  chunks: number,
): AsyncGenerator<string> {
  for (let seq = 0; seq < chunks; seq += 1) {
    const row = (await db('automation_run_values').where({ operator_id: operatorId, run_id: runId, node_id: nodeId, part, seq }).first('sealed')) as
      { sealed: string } | undefined;
    if (!row) throw new Error(`chunk ${seq} of a stored value of run ${runId} is missing`);
    yield await openText(keyring, row.sealed, contextOf(operatorId, runId, nodeId, part, seq));
  }
}

/** A step value stored apart, read back whole (a rerun reusing the original run's results); undefined when absent. */
export async function readRunValue(db: Runner, keyring: Keyring, operatorId: string, runId: string, nodeId: string, part: ValuePart): Promise<unknown> {
  const size = await runValueSize(db, operatorId, runId, nodeId, part);
  if (!size) return undefined;
  let json = '';
  for await (const chunk of runValueChunks(db, keyring, operatorId, runId, nodeId, part, size.chunks)) json += chunk;
  return JSON.parse(json) as unknown;
}

/** Nodes whose values a record holds truncated, with the whole values read back: what a rerun reuses. */
export async function withWholeValues(db: Runner, keyring: Keyring, operatorId: string, runId: string, nodes: NodeResult[]): Promise<NodeResult[]> {
  const whole: NodeResult[] = [];
  for (const node of nodes) {
    const next = { ...node };
    for (const part of ['input', 'output'] as const) {
      if (isTruncatedValue(node[part])) next[part] = await readRunValue(db, keyring, operatorId, runId, node.id, part);
    }
    whole.push(next);
  }
  return whole;
}

/** Deletes the values stored apart of these runs (erasure redacting them, a finish that found its run redacted). */
export async function deleteRunValues(db: Runner, operatorId: string, runIds: string[]): Promise<number> {
  if (runIds.length === 0) return 0;
  return db('automation_run_values').where({ operator_id: operatorId }).whereIn('run_id', runIds).del();
}
