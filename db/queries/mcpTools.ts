import type { Db } from '../knex';

/** One MCP tool (spec 2.12) and the automation behind it. */
export interface McpToolRow {
  workflowId: string;
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
}

/**
 * The operator's active, `mcp_exposed` automations as MCP tools, filtered by a key's allowlist:
 * `null` lists all, an array only the workflow ids named (an empty array none).
 *
 * @example const tools = await listMcpTools(db, operatorId, principal.mcpWorkflowAllowlist)
 */
export async function listMcpTools(_db: Db, _operatorId: string, _allowlist: string[] | null): Promise<McpToolRow[]> {
  throw new Error('not implemented yet');
}

/** Which of `ids` name (non-deleted) automations of the operator — to check a key's MCP allowlist. */
export async function existingWorkflowIds(_db: Db, _operatorId: string, _ids: string[]): Promise<Set<string>> {
  throw new Error('not implemented yet');
}
