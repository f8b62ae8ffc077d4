import { sha256Hex } from '../../core/apiKeyToken';
import type { ItemError } from '../../core/ingestItems';
import { prepareItem, writeItem } from '../../commands/ingest';
import { claimIdempotencyKey, recordIdempotentResponse } from '../../db/queries/idempotency';
import { getSettings } from '../../db/queries/settings';
import type { ActivityDeps } from '../deps';
import { nodeFailure } from './failures';
import type { DataWriteInput } from './types';
import { PAUSES, type ActivityDeclarations } from '../declarations';

const ITEM_KIND = { entity: 'entities', event: 'events', state: 'states' } as const;

/** The action's fields as the item the data API would receive for the same write. */
function itemOf(input: DataWriteInput): Record<string, unknown> {
  if (input.kind === 'entity') return { entityType: input.entityType, externalId: input.externalId, data: input.data };
  if (input.kind === 'event') return { externalId: input.externalId, eventType: input.eventType, data: input.data };
  return { externalId: input.externalId, stateKey: input.key, value: input.value };
}

const refusal = (error: ItemError) => nodeFailure(error.code, error.message, error.details);

function outputOf(input: DataWriteInput, outcome: { id: string; action?: string }): Record<string, unknown> {
  if (input.kind === 'entity') return { id: outcome.id, externalId: input.externalId, action: outcome.action ?? 'updated' };
  if (input.kind === 'event') return { id: outcome.id, externalId: input.externalId, eventType: input.eventType };
  return { externalId: input.externalId, key: input.key, value: input.value };
}

/**
 * `action.set_state`, `action.record_event`, `action.upsert_entity`: the same validation, PII sealing,
 * erasure rules and outbox events as the data API (commands/ingest.ts), in one transaction whose events carry the automation as
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
        const kind = ITEM_KIND[input.kind];
        const prepared = prepareItem(kind, templateSchema, keyring, input.operatorId, itemOf(input));
        if (!prepared.ok) throw refusal(prepared.error);
        const outcome = await writeItem(kind, trx, input.operatorId, prepared.write);
        if (!outcome.ok) throw refusal(outcome.error);
        const output = outputOf(input, outcome);
        // A state's value stays out of the stored answer (it may be anything); a replay takes it from its own input.
        if (key) await recordIdempotentResponse(trx, input.operatorId, key, input.kind === 'state' ? { externalId: input.externalId, key: input.key } : output);
        return output;
      });
    },
  };
}

/** How each of these activities meets the budget of large data (../declarations.ts). */
export const DATA_ACTIVITIES = {
  automationWriteData: PAUSES,
} satisfies ActivityDeclarations<typeof createDataActivities>;
