import { triggerFor } from '../../core/workflows/graph';
import { effectiveInputSchema } from '../../core/workflows/triggerSchema';
import type { Db } from '../knex';
import { getSettings } from './settings';
import type { WorkflowRow } from './workflows';

/** One MCP tool (spec 2.12) and the automation behind it. */
export interface McpToolRow {
  workflowId: string;
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
}

/**
 * The operator's active, `mcp_exposed` automations as MCP tools, filtered by a key's allowlist:
 * `null` lists all, an array only the workflow ids named (an empty array none). `inputSchema` is the
 * effective schema of the trigger an MCP call fires (DESIGN.md "Workflows").
 *
 * @example const tools = await listMcpTools(db, operatorId, principal.mcpWorkflowAllowlist)
 */
export async function listMcpTools(db: Db, operatorId: string, allowlist: string[] | null): Promise<McpToolRow[]> {
  if (allowlist && allowlist.length === 0) return [];
  const query = db<WorkflowRow>('workflows').where({ operator_id: operatorId, active: true, mcp_exposed: true }).whereNull('deleted_at');
  if (allowlist) query.whereIn('id', allowlist);
  const rows = await query.orderBy('mcp_tool_name').select('id', 'name', 'description', 'mcp_tool_name', 'nodes', 'edges');
  if (rows.length === 0) return [];
  const needsTemplate = rows.some((row) => row.nodes.some((node) => node.type === 'trigger.event'));
  const template = needsTemplate ? (await getSettings(db, operatorId)).templateSchema : null;
  return rows.map((row) => {
    const trigger = triggerFor({ nodes: row.nodes, edges: row.edges }, 'mcp');
    const inputSchema = trigger ? effectiveInputSchema(trigger, template) : { type: 'object' as const, properties: {}, required: [] };
    return { workflowId: row.id, name: row.mcp_tool_name, description: row.description || row.name, inputSchema };
  });
}

/** Which of `ids` name (non-deleted) automations of the operator — to check a key's MCP allowlist. */
export async function existingWorkflowIds(db: Db, operatorId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db('workflows').where({ operator_id: operatorId }).whereNull('deleted_at').whereIn('id', ids).select('id');
  return new Set(rows.map((row: { id: string }) => row.id));
}
