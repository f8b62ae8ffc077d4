import type { Actor } from '../../core/audit';
import { deleteRevokedApiKey, lockApiKey, revokeApiKey as revokeApiKeyRow } from '../../db/queries/apiKeys';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { assertKeyId, invalidKeyRequest, keyNotFound } from './refusals';

export interface ApiKeyRef {
  operatorId: string;
  id: string;
  /** Who acts on it, as the audit event's actor. */
  actor: Actor;
}

/**
 * Revokes a key; revoking a revoked key is a no-op (and no audit event). The operator's last active key is refused,
 * so an organisation is never left without a way in for its scripts: a new key has to exist first.
 */
export async function revokeApiKey(deps: Pick<CommandDeps, 'db'>, input: ApiKeyRef): Promise<void> {
  assertKeyId(input.id);
  await deps.db.transaction(async (trx) => {
    const before = await lockApiKey(trx, input.operatorId, input.id);
    const outcome = await revokeApiKeyRow(trx, input.operatorId, input.id);
    if (outcome === 'not_found') throw keyNotFound();
    if (outcome === 'last_active_key') throw invalidKeyRequest('Cannot revoke your last active API key. Create a new key first, then revoke this one.');
    const after = await lockApiKey(trx, input.operatorId, input.id);
    if (!before || !after || before.revoked) return;
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'api_key.revoked',
      target: { type: 'api_key', id: input.id },
      before,
      after,
    });
  });
}

/** Removes a key for good. Only a revoked key can go, so deleting never cuts off a caller that revocation would not. */
export async function deleteApiKey(deps: Pick<CommandDeps, 'db'>, input: ApiKeyRef): Promise<void> {
  assertKeyId(input.id);
  await deps.db.transaction(async (trx) => {
    const before = await lockApiKey(trx, input.operatorId, input.id);
    const outcome = await deleteRevokedApiKey(trx, input.operatorId, input.id);
    if (outcome === 'not_found' || !before) throw keyNotFound();
    if (outcome === 'active') throw invalidKeyRequest('Cannot delete an active key. Revoke it first, then delete it.');
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'api_key.deleted',
      target: { type: 'api_key', id: input.id },
      before,
      after: null,
    });
  });
}
