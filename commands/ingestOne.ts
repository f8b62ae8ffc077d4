/**
 * The data API's single writes (`POST /entities`, `POST /entities/:externalId/events`, `PUT …/state/:key`) as use
 * cases: the item is prepared and stored by the same rules as every ingest write (commands/ingest.ts), and an
 * entity or event sent under an Idempotency-Key is written at most once (commands/idempotency.ts). The caller loads
 * the operator's template (commands/templates.ts, through its settings port).
 */
import type { Actor } from '../core/audit';
import type { ItemError } from '../core/ingestItems';
import type { TemplateSchema } from '../core/templates';
import type { ItemOutcome } from '../db/ingest/results';
import { lockedStateValue } from '../db/queries/compliance';
import type { StateRow } from '../db/queries/entities';
import { auditStateChange, isAuditedState } from './compliance/stateAudit';
import type { CommandDeps } from './deps';
import { CommandError } from './errors';
import { withIdempotency, type IdempotencyScope } from './idempotency';
import { prepareItem, writeItem } from './ingest';
import type { WriteResult } from './results';

/** An item's refusal as the refusal of its single write. */
function refusal(error: ItemError): CommandError {
  return new CommandError(error.code, error.message, error.details);
}

interface SingleWrite {
  operatorId: string;
  template: TemplateSchema;
}

export interface UpsertEntityInput extends SingleWrite {
  entity: { entityType: string; externalId: string; data: Record<string, unknown> };
  idempotency: IdempotencyScope;
}

/** The entity a write names; its outcome (`created`, `updated`, `duplicate`) is the result's. */
export interface EntityWritten extends Record<string, unknown> {
  id: string;
  externalId: string;
  entityType: string;
}

/** The event a write appended. */
export interface EventRecorded extends Record<string, unknown> {
  id: string;
}

/**
 * Creates or updates one entity, its PII sealed: `created` or `updated`, or for a repeated key the first write's
 * entity as `duplicate`. The entity is read before it is written, so the write always takes a transaction.
 */
export async function upsertEntity(deps: Pick<CommandDeps, 'db' | 'keyring'>, input: UpsertEntityInput): Promise<WriteResult<EntityWritten>> {
  const { operatorId, entity } = input;
  const prepared = prepareItem('entities', input.template, deps.keyring, operatorId, entity);
  if (!prepared.ok) throw refusal(prepared.error);
  return deps.db.transaction((trx) =>
    withIdempotency(trx, operatorId, input.idempotency, async () => {
      const outcome = await writeItem('entities', trx, operatorId, prepared.write);
      if (!outcome.ok) throw refusal(outcome.error);
      return { outcome: outcome.action!, data: { id: outcome.id, externalId: entity.externalId, entityType: entity.entityType } };
    }),
  );
}

export interface RecordEventInput extends SingleWrite {
  externalId: string;
  event: { eventType: string; data: Record<string, unknown> };
  idempotency: IdempotencyScope;
}

/**
 * Appends one event to a live entity: `created` with its id, or for a repeated key the original id as `duplicate`.
 * Without a key the write is autocommitted, in a statement shared with the operator's other single events arriving
 * meanwhile (`deps.events`); with one, the key's claim joins it in a transaction of its own.
 */
export async function recordEvent(deps: Pick<CommandDeps, 'db' | 'keyring' | 'events'>, input: RecordEventInput): Promise<WriteResult<EventRecorded>> {
  const { operatorId } = input;
  const prepared = prepareItem('events', input.template, deps.keyring, operatorId, { ...input.event, externalId: input.externalId });
  if (!prepared.ok) throw refusal(prepared.error);
  const answer = (outcome: ItemOutcome): WriteResult<EventRecorded> => {
    if (!outcome.ok) throw refusal(outcome.error);
    return { outcome: 'created', data: { id: outcome.id } };
  };
  if (!input.idempotency.key) return answer(await deps.events.append(operatorId, prepared.write));
  return deps.db.transaction((trx) =>
    withIdempotency(trx, operatorId, input.idempotency, async () => answer(await writeItem('events', trx, operatorId, prepared.write))),
  );
}

export interface PutStateInput extends SingleWrite {
  externalId: string;
  stateKey: string;
  value: unknown;
  /** Who sets it: a change to `compliance` or `consent` is recorded on the audit trail in the write's transaction. */
  actor: Actor;
}

/** Sets one of the template's state keys of a live entity and answers the stored state. */
export async function putState(deps: Pick<CommandDeps, 'db' | 'keyring'>, input: PutStateInput): Promise<StateRow> {
  const { operatorId, externalId, stateKey } = input;
  const prepared = prepareItem('states', input.template, deps.keyring, operatorId, { externalId, stateKey, value: input.value });
  if (!prepared.ok) throw refusal(prepared.error);
  const outcome = await deps.db.transaction(async (trx) => {
    if (!isAuditedState(stateKey)) return writeItem('states', trx, operatorId, prepared.write);
    const before = await lockedStateValue(trx, operatorId, externalId, stateKey);
    const written = await writeItem('states', trx, operatorId, prepared.write);
    if (written.ok) await auditStateChange(trx, { operatorId, actor: input.actor, externalId, stateKey, before, after: prepared.write.value });
    return written;
  });
  if (!outcome.ok) throw refusal(outcome.error);
  return outcome.row as unknown as StateRow;
}
