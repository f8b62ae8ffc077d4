/**
 * Ingestion as one use case for every caller: the data API's single writes, the batch jobs' chunks and the automations'
 * data actions prepare an item by the same rules (core/ingestItems.ts: template, PII sealed) and store it by the same
 * writers (db/ingest/). Each caller reads the operator's template through its settings port (commands/templates.ts)
 * and maps an item's refusal into its own error: the API's answer, a failed node, a batch item's error.
 */
import type { Knex } from 'knex';
import type { Keyring } from '../core/crypto';
import {
  prepareEntity,
  prepareEvent,
  prepareState,
  type BatchKind,
  type EntityWrite,
  type EventWrite,
  type Prepared,
  type StateWrite,
} from '../core/ingestItems';
import type { TemplateSchema } from '../core/templates';
import { upsertEntities } from '../db/ingest/entities';
import { insertEvent, insertEvents } from '../db/ingest/events';
import type { Indexed, ItemOutcome } from '../db/ingest/results';
import { upsertStates } from '../db/ingest/states';
import type { Db } from '../db/knex';
import type { ChunkError } from '../db/queries/batchJobs';

interface WriteOf {
  entities: EntityWrite;
  events: EventWrite;
  states: StateWrite;
}

/** An event alone is one autocommitted statement; entities and states read before they write, so they take a transaction. */
export type RunnerOf<K extends BatchKind> = K extends 'events' ? Db | Knex.Transaction : Knex.Transaction;

interface Kind<K extends BatchKind> {
  prepare(template: TemplateSchema, keyring: Keyring, operatorId: string, raw: unknown): Prepared<WriteOf[K]>;
  writeOne(runner: RunnerOf<K>, operatorId: string, write: WriteOf[K]): Promise<ItemOutcome>;
  writeMany(trx: Knex.Transaction, operatorId: string, items: Array<Indexed<WriteOf[K]>>): Promise<ItemOutcome[]>;
}

async function onlyOutcome(outcomes: Promise<ItemOutcome[]>): Promise<ItemOutcome> {
  const [outcome] = await outcomes;
  if (!outcome) throw new Error('a write of one item returned no outcome');
  return outcome;
}

/** How each kind of item is validated (core/ingestItems.ts) and stored (db/ingest/): the one table every ingest write goes through. */
const KINDS: { [K in BatchKind]: Kind<K> } = {
  entities: {
    prepare: prepareEntity,
    writeOne: (trx, operatorId, write) => onlyOutcome(upsertEntities(trx, operatorId, [{ index: 0, write }])),
    writeMany: upsertEntities,
  },
  events: {
    prepare: (template, _keyring, _operatorId, raw) => prepareEvent(template, raw),
    writeOne: insertEvent,
    writeMany: insertEvents,
  },
  states: {
    prepare: (template, _keyring, _operatorId, raw) => prepareState(template, raw),
    writeOne: (trx, operatorId, write) => onlyOutcome(upsertStates(trx, operatorId, [{ index: 0, write }])),
    writeMany: upsertStates,
  },
};

/**
 * Validates one item against the operator's template and seals its PII, touching no database: a caller can refuse
 * it before opening a transaction or claiming an idempotency key, then hand the write to `writeItem`.
 */
export function prepareItem<K extends BatchKind>(kind: K, template: TemplateSchema, keyring: Keyring, operatorId: string, raw: unknown): Prepared<WriteOf[K]> {
  return (KINDS[kind] as Kind<K>).prepare(template, keyring, operatorId, raw);
}

/**
 * Stores one prepared item with its outbox events. An unknown or erased entity (or an entity of another type) is an
 * `ok: false` outcome for the caller to map into its own error; only an unexpected failure throws.
 */
export function writeItem<K extends BatchKind>(kind: K, runner: RunnerOf<K>, operatorId: string, write: WriteOf[K]): Promise<ItemOutcome> {
  return (KINDS[kind] as Kind<K>).writeOne(runner, operatorId, write);
}

export interface ChunkResult {
  succeeded: number;
  failed: number;
  errors: ChunkError[];
}

export interface ChunkInput {
  kind: BatchKind;
  operatorId: string;
  template: TemplateSchema;
  keyring: Keyring;
  items: unknown[];
  /** The position of the chunk's first item in the whole batch: errors name items by their position. */
  baseIndex: number;
}

function externalIdOf(raw: unknown): string | null {
  const value = (raw as { externalId?: unknown } | null)?.externalId;
  return typeof value === 'string' ? value : null;
}

/**
 * One chunk of a batch job inside the caller's transaction, by the same rules as a single write: valid items are
 * written set-based, refused ones become `{ index, externalId, code, message }` errors in item order.
 */
export async function ingestChunk(trx: Knex.Transaction, input: ChunkInput): Promise<ChunkResult> {
  const kind = KINDS[input.kind] as Kind<BatchKind>;
  const errors: ChunkError[] = [];
  const accepted: Array<Indexed<WriteOf[BatchKind]>> = [];
  input.items.forEach((raw, offset) => {
    const index = input.baseIndex + offset;
    const prepared = kind.prepare(input.template, input.keyring, input.operatorId, raw);
    if (prepared.ok) accepted.push({ index, write: prepared.write });
    else errors.push({ index, externalId: externalIdOf(raw), code: prepared.error.code, message: prepared.error.message });
  });
  const outcomes = await kind.writeMany(trx, input.operatorId, accepted);
  let succeeded = 0;
  for (const outcome of outcomes) {
    if (outcome.ok) succeeded += 1;
    else errors.push({ index: outcome.index, externalId: outcome.externalId, code: outcome.error.code, message: outcome.error.message });
  }
  errors.sort((a, b) => a.index - b.index);
  return { succeeded, failed: errors.length, errors };
}
