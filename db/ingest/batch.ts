import type { Knex } from 'knex';
import type { Keyring } from '../../core/crypto';
import { prepareEntity, prepareEvent, prepareState, type Prepared } from '../../core/ingestItems';
import type { TemplateSchema } from '../../core/templates';
import type { BatchKind, ChunkError } from '../queries/batchJobs';
import { upsertEntities } from './entities';
import { insertEvents } from './events';
import type { Indexed, ItemOutcome } from './results';
import { upsertStates } from './states';

export interface ChunkResult {
  succeeded: number;
  failed: number;
  errors: ChunkError[];
}

function externalIdOf(raw: unknown): string | null {
  const value = (raw as { externalId?: unknown } | null)?.externalId;
  return typeof value === 'string' ? value : null;
}

async function write(trx: Knex.Transaction, kind: BatchKind, operatorId: string, template: TemplateSchema, keyring: Keyring, items: unknown[], baseIndex: number) {
  const errors: ChunkError[] = [];
  function valid<T>(prepare: (raw: unknown) => Prepared<T>): Array<Indexed<T>> {
    const accepted: Array<Indexed<T>> = [];
    items.forEach((raw, offset) => {
      const prepared = prepare(raw);
      if (prepared.ok) accepted.push({ index: baseIndex + offset, write: prepared.write });
      else errors.push({ index: baseIndex + offset, externalId: externalIdOf(raw), code: prepared.error.code, message: prepared.error.message });
    });
    return accepted;
  }
  let outcomes: ItemOutcome[];
  if (kind === 'entities') outcomes = await upsertEntities(trx, operatorId, valid((raw) => prepareEntity(template, keyring, operatorId, raw)));
  else if (kind === 'events') outcomes = await insertEvents(trx, operatorId, valid((raw) => prepareEvent(template, raw)));
  else outcomes = await upsertStates(trx, operatorId, valid((raw) => prepareState(template, raw)));
  for (const outcome of outcomes) {
    if (!outcome.ok) errors.push({ index: outcome.index, externalId: outcome.externalId, code: outcome.error.code, message: outcome.error.message });
  }
  return { errors, succeeded: outcomes.filter((outcome) => outcome.ok).length };
}

/**
 * Validates and stores one chunk of a batch inside the caller's transaction: valid items are written
 * set-based, invalid ones become `{ index, externalId, code, message }` errors (index in the whole batch).
 */
export async function ingestChunk(
  trx: Knex.Transaction,
  input: { kind: BatchKind; operatorId: string; template: TemplateSchema; keyring: Keyring; items: unknown[]; baseIndex: number },
): Promise<ChunkResult> {
  const { errors, succeeded } = await write(trx, input.kind, input.operatorId, input.template, input.keyring, input.items, input.baseIndex);
  errors.sort((a, b) => a.index - b.index);
  return { succeeded, failed: errors.length, errors };
}
