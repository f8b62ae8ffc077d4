import type { Knex } from 'knex';
import { sha256Hex } from '../../core/apiKeyToken';
import type { Keyring } from '../../core/crypto';
import { prepareEntity, prepareEvent, prepareState, type Prepared } from '../../core/ingestItems';
import type { TemplateSchema } from '../../core/templates';
import { upsertEntities } from '../../db/ingest/entities';
import { insertEvents } from '../../db/ingest/events';
import type { ItemOutcome } from '../../db/ingest/results';
import { upsertStates } from '../../db/ingest/states';
import { claimIdempotencyKey, recordIdempotentResponse } from '../../db/queries/idempotency';
import { getSettings } from '../../db/queries/settings';
import type { ActivityDeps } from '..';
import { nodeFailure } from './failures';
import type { DataWriteInput } from './types';

function accepted<T>(prepared: Prepared<T>): T {
  if (!prepared.ok) throw nodeFailure(prepared.error.code, prepared.error.message, prepared.error.details);
  return prepared.write;
}

async function write(trx: Knex.Transaction, schema: TemplateSchema, keyring: Keyring, input: DataWriteInput): Promise<ItemOutcome | undefined> {
  if (input.kind === 'entity') {
    const entity = accepted(prepareEntity(schema, keyring, input.operatorId, { entityType: input.entityType, externalId: input.externalId, data: input.data }));
    return (await upsertEntities(trx, input.operatorId, [{ index: 0, write: entity }]))[0];
  }
  if (input.kind === 'event') {
    const event = accepted(prepareEvent(schema, { externalId: input.externalId, eventType: input.eventType, data: input.data }));
    return (await insertEvents(trx, input.operatorId, [{ index: 0, write: event }]))[0];
  }
  const state = accepted(prepareState(schema, { externalId: input.externalId, stateKey: input.key, value: input.value }));
  return (await upsertStates(trx, input.operatorId, [{ index: 0, write: state }]))[0];
}

function outputOf(input: DataWriteInput, outcome: { id: string; action?: string }): Record<string, unknown> {
  if (input.kind === 'entity') return { id: outcome.id, externalId: input.externalId, action: outcome.action ?? 'updated' };
  if (input.kind === 'event') return { id: outcome.id, externalId: input.externalId, eventType: input.eventType };
  return { externalId: input.externalId, key: input.key, value: input.value };
}

/**
 * `action.set_state`, `action.record_event`, `action.upsert_entity`: the same validation, PII sealing,
 * erasure rules and outbox events as the data API, in one transaction whose events carry the workflow as
 * their origin (the dispatcher does not feed them back to it). Refusals (unknown entity, erased
 * entity, template violations) fail the node without retry. The run and node's `idempotencyKey` is claimed
 * in the same transaction: a local activity that runs again after a worker died between its commit and
 * Temporal recording it (replay) gets the first write's output back and writes nothing — exactly once.
 */
export function createDataActivities({ db, keyring }: ActivityDeps) {
  return {
    async automationWriteData(input: DataWriteInput): Promise<Record<string, unknown>> {
      const { templateSchema } = await getSettings(db, input.operatorId);
      if (!templateSchema) throw nodeFailure('NO_TEMPLATE', 'The operator has no template configured');
      const key = input.idempotencyKey ? `automation:${input.idempotencyKey}` : undefined;
      return db.transaction(async (trx) => {
        await trx.raw("SELECT set_config('app.origin_workflow', ?, true)", [input.automationId]);
        if (key) {
          const claim = await claimIdempotencyKey(trx, input.operatorId, key, sha256Hex(key));
          if (claim.kind === 'replay') {
            const stored = (claim.body as { data?: Record<string, unknown> }).data ?? {};
            return input.kind === 'state' ? { ...stored, value: input.value } : stored;
          }
        }
        const outcome = await write(trx, templateSchema, keyring, input);
        if (!outcome) throw new Error('write returned no outcome');
        if (!outcome.ok) throw nodeFailure(outcome.error.code, outcome.error.message, outcome.error.details);
        const output = outputOf(input, outcome);
        // A state's value stays out of the stored answer (it may be anything); a replay takes it from its own input.
        if (key) await recordIdempotentResponse(trx, input.operatorId, key, 200, { data: input.kind === 'state' ? { externalId: input.externalId, key: input.key } : output });
        return output;
      });
    },
  };
}
