import { toolAnnotations, type ToolAnnotations } from '../../core/mcpToolAnnotations';
import { triggerFor } from '../../core/automations/graph';
import { runOutputSchema, type ObjectSchema } from '../../core/automations/runOutput';
import { effectiveInputSchema } from '../../core/automations/triggerSchema';
import type { AutomationEdge, AutomationNode } from '../../core/automations/types';
import type { TemplateSchema } from '../../core/templates';
import type { Db } from '../knex';

/**
 * One MCP tool (spec 2.12) and the automation behind it. Beyond the spec's fields, MCP 2025-06-18's `title` (the
 * workflow's display name), `outputSchema` (only when the workflow declares its output) and `annotations`.
 */
export interface McpToolRow {
  automationId: string;
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
  outputSchema: ObjectSchema | null;
  annotations: ToolAnnotations;
}

interface ToolQueryRow {
  id: string;
  name: string;
  description: string;
  mcp_tool_name: string;
  nodes: AutomationNode[];
  edges: AutomationEdge[];
  /** The operator's template, read only for automations with an event trigger (their schema is the event's fields). */
  template_schema: TemplateSchema | null;
}

function toTool(row: ToolQueryRow): McpToolRow {
  const definition = { nodes: row.nodes, edges: row.edges };
  const trigger = triggerFor(definition, 'mcp');
  const inputSchema = trigger ? effectiveInputSchema(trigger, row.template_schema) : { type: 'object' as const, properties: {}, required: [] };
  return {
    automationId: row.id,
    name: row.mcp_tool_name,
    title: row.name,
    description: row.description || row.name,
    inputSchema,
    outputSchema: trigger ? runOutputSchema(definition, trigger.id) : null,
    annotations: trigger ? toolAnnotations(definition, trigger.id) : toolAnnotations({ nodes: [], edges: [] }, ''),
  };
}

/**
 * The operator's active, `mcp_exposed` automations as MCP tools, in one statement: filtered by a key's
 * allowlist (`null` all, an array only the automation ids named, an empty array none) and, when `name`
 * is given, by tool name. `inputSchema` is the effective schema of the trigger an MCP call fires
 * (DESIGN.md "Workflows").
 */
async function queryTools(db: Db, operatorId: string, allowlist: string[] | null, name?: string): Promise<McpToolRow[]> {
  if (allowlist && allowlist.length === 0) return [];
  const result = await db.raw<{ rows: ToolQueryRow[] }>(
    `SELECT w.id, w.name, w.description, w.mcp_tool_name, w.nodes, w.edges,
            CASE WHEN w.trigger_events <> '{}' THEN t.schema END AS template_schema
       FROM workflows w
       LEFT JOIN operator_settings s ON s.operator_id = w.operator_id
       LEFT JOIN templates t ON t.id = s.template_id
      WHERE w.operator_id = ? AND w.active AND w.mcp_exposed AND w.deleted_at IS NULL
        ${allowlist ? 'AND w.id = ANY(?::text[])' : ''} ${name === undefined ? '' : 'AND w.mcp_tool_name = ?'}
      ORDER BY w.mcp_tool_name`,
    [operatorId, ...(allowlist ? [allowlist] : []), ...(name === undefined ? [] : [name])],
  );
  return result.rows.map(toTool);
}

/** @example const tools = await listMcpTools(db, operatorId, principal.mcpAutomationAllowlist) */
export const listMcpTools = (db: Db, operatorId: string, allowlist: string[] | null) => queryTools(db, operatorId, allowlist);

/** The tool a `tools/call` names, if the key may see it. @example const tool = await findMcpTool(db, operatorId, null, 'kyc-check') */
export async function findMcpTool(db: Db, operatorId: string, allowlist: string[] | null, name: string): Promise<McpToolRow | undefined> {
  return (await queryTools(db, operatorId, allowlist, name))[0];
}

/** Which of `ids` name (non-deleted) automations of the operator — to check a key's MCP allowlist. */
export async function existingAutomationIds(db: Db, operatorId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db('workflows').where({ operator_id: operatorId }).whereNull('deleted_at').whereIn('id', ids).select('id');
  return new Set(rows.map((row: { id: string }) => row.id));
}
