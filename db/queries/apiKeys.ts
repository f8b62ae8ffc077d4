import type { Db } from '../knex';

export interface ApiKeyRow {
  id: string;
  operator_id: string;
  key_hash: string;
  label: string;
  revoked: boolean;
  created_at: Date;
  last_used_at: Date | null;
  mcp_enabled: boolean;
  mcp_automation_allowlist: string[] | null;
}

const COLUMNS = ['id', 'operator_id', 'key_hash', 'label', 'revoked', 'created_at', 'last_used_at', 'mcp_enabled', 'mcp_automation_allowlist'];

export async function insertApiKey(
  db: Db,
  input: { operatorId: string; keyHash: string; label: string; createdByMemberId?: string | null },
): Promise<ApiKeyRow> {
  const [row] = (await db('api_keys')
    .insert({ operator_id: input.operatorId, key_hash: input.keyHash, label: input.label, created_by_member_id: input.createdByMemberId ?? null })
    .returning(COLUMNS)) as ApiKeyRow[];
  return row!;
}

/** One of the operator's keys by id, locked until `db` (a transaction) ends: what a change reads before it writes. */
export async function lockApiKey(db: Db, operatorId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys').where({ operator_id: operatorId, id }).forUpdate().first(COLUMNS);
}

export async function listApiKeys(db: Db, operatorId: string): Promise<ApiKeyRow[]> {
  return db<ApiKeyRow>('api_keys').where({ operator_id: operatorId }).orderBy('created_at', 'desc').select(COLUMNS);
}

/** Authentication lookup by hash: how the operator is found, hence not scoped by it. */
export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys').where({ key_hash: keyHash }).first(COLUMNS);
}

export async function renameApiKey(db: Db, operatorId: string, id: string, label: string): Promise<boolean> {
  const count = await db('api_keys').where({ operator_id: operatorId, id }).update({ label });
  return count > 0;
}

export type RevokeOutcome = 'revoked' | 'not_found' | 'last_active_key';

/**
 * Revokes a key unless it is the operator's last active one. The operator row is locked so two
 * concurrent revocations cannot each see the other key as the survivor.
 */
export async function revokeApiKey(db: Db, operatorId: string, id: string): Promise<RevokeOutcome> {
  return db.transaction(async (trx) => {
    await trx('operators').where({ id: operatorId }).forUpdate().first('id');
    const key = await trx<ApiKeyRow>('api_keys').where({ operator_id: operatorId, id }).first('id', 'revoked');
    if (!key) return 'not_found';
    if (key.revoked) return 'revoked';
    const others = await trx('api_keys').where({ operator_id: operatorId, revoked: false }).whereNot({ id }).count<{ count: string }[]>({ count: '*' });
    if (Number(others[0]?.count ?? 0) === 0) return 'last_active_key';
    await trx('api_keys').where({ operator_id: operatorId, id }).update({ revoked: true, revoked_at: trx.fn.now() });
    return 'revoked';
  });
}

export type DeleteOutcome = 'deleted' | 'not_found' | 'active';

export async function deleteRevokedApiKey(db: Db, operatorId: string, id: string): Promise<DeleteOutcome> {
  const deleted = await db('api_keys').where({ operator_id: operatorId, id, revoked: true }).delete();
  if (deleted > 0) return 'deleted';
  const exists = await db('api_keys').where({ operator_id: operatorId, id }).first('id');
  return exists ? 'active' : 'not_found';
}

export async function updateApiKeyMcp(
  db: Db,
  operatorId: string,
  id: string,
  changes: { mcpEnabled?: boolean; mcpAutomationAllowlist?: string[] | null },
): Promise<ApiKeyRow | undefined> {
  const patch: Record<string, unknown> = {};
  if (changes.mcpEnabled !== undefined) patch.mcp_enabled = changes.mcpEnabled;
  if (changes.mcpAutomationAllowlist !== undefined) {
    patch.mcp_automation_allowlist = changes.mcpAutomationAllowlist === null ? null : JSON.stringify(changes.mcpAutomationAllowlist);
  }
  const query = db('api_keys').where({ operator_id: operatorId, id });
  if (Object.keys(patch).length === 0) return (await query.first(COLUMNS)) as ApiKeyRow | undefined;
  const [row] = (await query.update(patch).returning(COLUMNS)) as ApiKeyRow[];
  return row;
}

/**
 * Writes buffered `last_used_at` values in one set-based statement, never moving a timestamp backwards.
 *
 * @example await touchApiKeys(db, [{ id, usedAt: new Date() }])
 */
export async function touchApiKeys(db: Db, usages: Array<{ id: string; usedAt: Date }>): Promise<void> {
  if (usages.length === 0) return;
  await db.raw(
    `UPDATE api_keys AS k SET last_used_at = u.used_at
       FROM unnest(?::uuid[], ?::timestamptz[]) AS u(id, used_at)
      WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.used_at)`,
    [usages.map((usage) => usage.id), usages.map((usage) => usage.usedAt.toISOString())],
  );
}
