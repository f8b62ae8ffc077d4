import { eraseEntity as eraseEntityRows } from '../db/ingest/erasure';
import type { EntityRow } from '../db/queries/entities';
import type { CommandDeps } from './deps';
import { CommandError } from './errors';

/**
 * Erases one of the operator's entities for data protection (spec 3.4; db/ingest/erasure.ts does it in one
 * transaction): idempotent, an erased entity answered again as it is. Refused `ENTITY_NOT_FOUND` for an externalId
 * the operator never wrote.
 */
export async function eraseEntity(deps: Pick<CommandDeps, 'db'>, input: { operatorId: string; externalId: string }): Promise<EntityRow> {
  const entity = await eraseEntityRows(deps.db, input.operatorId, input.externalId);
  if (!entity) throw new CommandError('ENTITY_NOT_FOUND', `No entity with externalId ${input.externalId}`);
  return entity;
}
