import { prepareEntity, prepareEvent, prepareState, type Prepared } from '../../core/ingestItems';
import { upsertEntities } from '../../db/ingest/entities';
import { insertEvents } from '../../db/ingest/events';
import type { ItemOutcome } from '../../db/ingest/results';
import { upsertStates } from '../../db/ingest/states';
import { getSettings } from '../../db/queries/settings';
import type { ActivityDeps } from '..';
import { nodeFailure } from './failures';
import type { DataWriteInput } from './types';

function accepted<T>(prepared: Prepared<T>): T {
  if (!prepared.ok) throw nodeFailure(prepared.error.code, prepared.error.message, prepared.error.details);
  return prepared.write;
}

/**
 * `action.set_state`, `action.record_event`, `action.upsert_entity`: the same validation, PII sealing,
 * erasure rules and outbox events as the data API, in one transaction whose events carry the workflow as
 * their origin (the dispatcher does not feed them back to it). Refusals (unknown entity, erased
 * entity, template violations) fail the node without retry.
 */
export function createDataActivities({ db, keyring }: ActivityDeps) {
  return {
    async automationWriteData(input: DataWriteInput): Promise<Record<string, unknown>> {
      const { templateSchema } = await getSettings(db, input.operatorId);
      if (!templateSchema) throw nodeFailure('NO_TEMPLATE', 'The operator has no template configured');
      const outcome = await db.transaction(async (trx): Promise<ItemOutcome | undefined> => {
        await trx.raw("SELECT set_config('app.origin_workflow', ?, true)", [input.workflowId]);
        if (input.kind === 'entity') {
          const write = accepted(prepareEntity(templateSchema, keyring, input.operatorId, { entityType: input.entityType, externalId: input.externalId, data: input.data }));
          return (await upsertEntities(trx, input.operatorId, [{ index: 0, write }]))[0];
        }
        if (input.kind === 'event') {
          const write = accepted(prepareEvent(templateSchema, { externalId: input.externalId, eventType: input.eventType, data: input.data }));
          return (await insertEvents(trx, input.operatorId, [{ index: 0, write }]))[0];
        }
        const write = accepted(prepareState(templateSchema, { externalId: input.externalId, stateKey: input.key, value: input.value }));
        return (await upsertStates(trx, input.operatorId, [{ index: 0, write }]))[0];
      });
      if (!outcome) throw new Error('write returned no outcome');
      if (!outcome.ok) throw nodeFailure(outcome.error.code, outcome.error.message, outcome.error.details);
      if (input.kind === 'entity') return { id: outcome.id, externalId: input.externalId, action: outcome.action ?? 'updated' };
      if (input.kind === 'event') return { id: outcome.id, externalId: input.externalId, eventType: input.eventType };
      return { externalId: input.externalId, key: input.key, value: input.value };
    },
  };
}
