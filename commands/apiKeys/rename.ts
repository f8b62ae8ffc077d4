import type { Actor } from '../../core/audit';
import { lockApiKey, renameApiKey as renameApiKeyRow } from '../../db/queries/apiKeys';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { assertKeyId, keyNotFound } from './refusals';

export interface RenameApiKeyInput {
  operatorId: string;
  id: string;
  label: string;
  /** Who renames it, as the audit event's actor. */
  actor: Actor;
}

/** Relabels one of the operator's keys, revoked or not (`NOT_FOUND` for a key of another operator). */
export async function renameApiKey(deps: Pick<CommandDeps, 'db'>, input: RenameApiKeyInput): Promise<void> {
  assertKeyId(input.id);
  await deps.db.transaction(async (trx) => {
    const before = await lockApiKey(trx, input.operatorId, input.id);
    if (!before || !(await renameApiKeyRow(trx, input.operatorId, input.id, input.label))) throw keyNotFound();
    const after = await lockApiKey(trx, input.operatorId, input.id);
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'api_key.renamed',
      target: { type: 'api_key', id: input.id },
      before,
      after: after!,
    });
  });
}
