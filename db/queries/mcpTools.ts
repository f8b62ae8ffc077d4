import type { McpToolSource } from '../../core/mcpTool';
import type { Db } from '../knex';

/**
 * The operator's active, `mcp_exposed` automations, in one statement, as core/mcpTool.ts builds tools from them:
 * filtered by a key's allowlist (`null` all, an array only the automation ids named, an empty array none) and, when
 * `name` is given, by tool name; ordered by tool name.
 */
export async function listMcpToolSources(db: Db, operatorId: string, allowlist: string[] | null, name?: string): Promise<McpToolSource[]> {
  if (allowlist && allowlist.length === 0) return [];
  const result = await db.raw<{ rows: McpToolSource[] }>(
    `SELECT w.id, w.operator_id, w.active, w.version, w.name, w.description, w.mcp_tool_name, w.nodes, w.edges,
            CASE WHEN w.trigger_events <> '{}' THEN t.schema END AS template_schema,
            octet_length(w.nodes::text) + octet_length(w.edges::text) AS definition_bytes
       FROM automations w
       LEFT JOIN operator_settings s ON s.operator_id = w.operator_id
       LEFT JOIN templates t ON t.id = s.template_id
      WHERE w.operator_id = ? AND w.active AND w.mcp_exposed AND w.deleted_at IS NULL
        ${allowlist ? 'AND w.id = ANY(?::text[])' : ''} ${name === undefined ? '' : 'AND w.mcp_tool_name = ?'}
      ORDER BY w.mcp_tool_name`,
    [operatorId, ...(allowlist ? [allowlist] : []), ...(name === undefined ? [] : [name])],
  );
  return result.rows;
}

/** Which of `ids` name (non-deleted) automations of the operator — to check a key's MCP allowlist. */
export async function existingAutomationIds(db: Db, operatorId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db('automations').where({ operator_id: operatorId }).whereNull('deleted_at').whereIn('id', ids).select('id');
  return new Set(rows.map((row: { id: string }) => row.id));
}
