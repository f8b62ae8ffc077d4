import { generateApiKey, sha256Hex } from '../../core/apiKeyToken';
import type { Actor } from '../../core/audit';
import { insertApiKey, type ApiKeyRow } from '../../db/queries/apiKeys';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';

export interface CreateApiKeyInput {
  operatorId: string;
  label?: string;
  /** The member who asked for it; null when the key was created with another key. */
  createdByMemberId: string | null;
  /** Who creates it, as the audit event's actor. */
  actor: Actor;
}

export interface CreatedApiKey {
  row: ApiKeyRow;
  /** The plaintext key, returned this once: only its SHA-256 is stored. */
  key: string;
}

/** Issues a new API key for an operator, active and with MCP off. */
export async function createApiKey(deps: Pick<CommandDeps, 'db'>, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const row = await deps.db.transaction(async (trx) => {
    const created = await insertApiKey(trx, {
      operatorId: input.operatorId,
      keyHash: sha256Hex(key),
      label: input.label ?? '',
      createdByMemberId: input.createdByMemberId,
    });
    await recordAudit(trx, {
      operatorId: input.operatorId,
      actor: input.actor,
      action: 'api_key.created',
      target: { type: 'api_key', id: created.id },
      before: null,
      after: created,
    });
    return created;
  });
  return { row, key };
}
