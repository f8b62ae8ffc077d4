import type { ApiKeyRow } from '../../db/queries/apiKeys';

/** A key as `GET /api-keys` lists it: the hash, never the key. */
export function apiKeyRecord(row: ApiKeyRow) {
  return {
    id: row.id,
    operatorId: row.operator_id,
    keyHash: row.key_hash,
    label: row.label,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
    revoked: row.revoked,
    mcp_enabled: row.mcp_enabled,
    mcp_workflow_allowlist: row.mcp_automation_allowlist,
  };
}

/** The answer to `POST /api-keys`: the only time the plaintext key is shown. */
export function createdKeyRecord(row: Pick<ApiKeyRow, 'id' | 'label' | 'created_at'>, key: string) {
  return { id: row.id, key, label: row.label, createdAt: row.created_at.toISOString() };
}

/** The answer to `PATCH /api-keys/:id/mcp`. */
export function mcpSettingsRecord(row: Pick<ApiKeyRow, 'id' | 'mcp_enabled' | 'mcp_automation_allowlist'>) {
  return { id: row.id, mcp_enabled: row.mcp_enabled, mcp_workflow_allowlist: row.mcp_automation_allowlist };
}
