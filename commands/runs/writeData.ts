import { sha256Hex } from '../../core/apiKeyToken';
import type { BatchKind } from '../../core/ingestItems';
import { claimIdempotencyKey, recordIdempotentResponse } from '../../db/queries/idempotency';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';
import { prepareItem, writeItem } from '../ingest';
import { requireTemplate } from '../templates';
import type { WriteResult } from '../results';

/** What an automation's data action writes: the item the data API would receive for the same write. */
export type RunDataWrite = {
  operatorId: string;
  automationId: string;
  /**
   * `<runId>:<nodeId>`: the write claims it in its own transaction, so running it again (a worker died after the
   * commit and before Temporal recorded the local activity) returns the first write's output instead of writing twice.
   */
  idempotencyKey?: string;
} & (
  | { kind: 'state'; externalId: string; key: string; value: unknown }
  | { kind: 'event'; externalId: string; eventType: string; data: unknown }
  | { kind: 'entity'; entityType: string; externalId: string; data: unknown }
);

const ITEM_KIND: Record<RunDataWrite['kind'], BatchKind> = { entity: 'entities', event: 'events', state: 'states' };

function itemOf(input: RunDataWrite): Record<string, unknown> {
  if (input.kind === 'entity') return { entityType: input.entityType, externalId: input.externalId, data: input.data };
  if (input.kind === 'event') return { externalId: input.externalId, eventType: input.eventType, data: input.data };
  return { externalId: input.externalId, stateKey: input.key, value: input.value };
}

function outputOf(input: RunDataWrite, outcome: { id: string; action?: string }): Record<string, unknown> {
  if (input.kind === 'entity') return { id: outcome.id, externalId: input.externalId, action: outcome.action ?? 'updated' };
  if (input.kind === 'event') return { id: outcome.id, externalId: input.externalId, eventType: input.eventType };
  return { externalId: input.externalId, key: input.key, value: input.value };
}

/**
 * `action.set_state`, `action.record_event`, `action.upsert_entity` as one use case: the same validation, PII
 * sealing, erasure rules and outbox events as the data API (commands/ingest.ts), in one transaction whose events carry
 * the automation as their origin (the dispatcher does not feed them back to it). The run and node's key is claimed in
 * that transaction: run again, the write answers the first one's output as `duplicate` and writes nothing. Refused
 * with the item's code, or `TEMPLATE_NOT_CONFIGURED` when the operator has no template.
 */
export async function writeRunData(deps: Pick<CommandDeps, 'db' | 'keyring' | 'settings'>, input: RunDataWrite): Promise<WriteResult<Record<string, unknown>>> {
  const templateSchema = await requireTemplate(deps, input.operatorId);
  const key = input.idempotencyKey ? `automation:${input.idempotencyKey}` : undefined;
  return deps.db.transaction(async (trx) => {
    await trx.raw("SELECT set_config('app.origin_automation', ?, true)", [input.automationId]);
    if (key) {
      const claim = await claimIdempotencyKey(trx, input.operatorId, key, sha256Hex(key));
      if (claim.kind === 'replay') {
        const stored = (claim.body as { data?: Record<string, unknown> }).data ?? {};
        return { outcome: 'duplicate', data: input.kind === 'state' ? { ...stored, value: input.value } : stored };
      }
    }
    const kind = ITEM_KIND[input.kind];
    const prepared = prepareItem(kind, templateSchema, deps.keyring, input.operatorId, itemOf(input));
    if (!prepared.ok) throw new CommandError(prepared.error.code, prepared.error.message, prepared.error.details);
    const outcome = await writeItem(kind, trx, input.operatorId, prepared.write);
    if (!outcome.ok) throw new CommandError(outcome.error.code, outcome.error.message, outcome.error.details);
    const output = outputOf(input, outcome);
    // A state's value stays out of the stored answer (it may be anything); a replay takes it from its own input.
    if (key) await recordIdempotentResponse(trx, input.operatorId, key, input.kind === 'state' ? { externalId: input.externalId, key: input.key } : output);
    return { outcome: outcome.action ?? (input.kind === 'event' ? 'created' : 'updated'), data: output };
  });
}
