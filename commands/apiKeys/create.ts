import { generateApiKey, sha256Hex } from '../../core/apiKeyToken';
import { insertApiKey, type ApiKeyRow } from '../../db/queries/apiKeys';
import type { CommandDeps } from '../deps';

export interface CreateApiKeyInput {
  operatorId: string;
  label?: string;
  /** The member who asked for it; null when the key was created with another key. */
  createdByMemberId: string | null;
}

export interface CreatedApiKey {
  row: ApiKeyRow;
  /** The plaintext key, returned this once: only its SHA-256 is stored. */
  key: string;
}

/** Issues a new API key for an operator, active and with MCP off. */
export async function createApiKey(deps: Pick<CommandDeps, 'db'>, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const row = await insertApiKey(deps.db, {
    operatorId: input.operatorId,
    keyHash: sha256Hex(key),
    label: input.label ?? '',
    createdByMemberId: input.createdByMemberId,
  });
  return { row, key };
}
