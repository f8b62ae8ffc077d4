import { deleteRevokedApiKey, revokeApiKey as revokeApiKeyRow } from '../../db/queries/apiKeys';
import type { CommandDeps } from '../deps';
import { assertKeyId, invalidKeyRequest, keyNotFound } from './refusals';

export interface ApiKeyRef {
  operatorId: string;
  id: string;
}

/**
 * Revokes a key; revoking a revoked key is a no-op. The operator's last active key is refused, so an organisation
 * is never left without a way in for its scripts: a new key has to exist first.
 */
export async function revokeApiKey(deps: Pick<CommandDeps, 'db'>, input: ApiKeyRef): Promise<void> {
  assertKeyId(input.id);
  const outcome = await revokeApiKeyRow(deps.db, input.operatorId, input.id);
  if (outcome === 'not_found') throw keyNotFound();
  if (outcome === 'last_active_key') throw invalidKeyRequest('Cannot revoke your last active API key. Create a new key first, then revoke this one.');
}

/** Removes a key for good. Only a revoked key can go, so deleting never cuts off a caller that revocation would not. */
export async function deleteApiKey(deps: Pick<CommandDeps, 'db'>, input: ApiKeyRef): Promise<void> {
  assertKeyId(input.id);
  const outcome = await deleteRevokedApiKey(deps.db, input.operatorId, input.id);
  if (outcome === 'not_found') throw keyNotFound();
  if (outcome === 'active') throw invalidKeyRequest('Cannot delete an active key. Revoke it first, then delete it.');
}
