import { toMcpTool, type McpTool, type McpToolSource } from '../../core/mcpTool';
import { listMcpToolSources } from '../../db/queries/mcpTools';
import type { Db } from '../../db/knex';

/** @example const tools = await listMcpTools(db, operatorId, principal.mcpAutomationAllowlist) */
export async function listMcpTools(db: Db, operatorId: string, allowlist: string[] | null): Promise<McpTool[]> {
  return (await listMcpToolSources(db, operatorId, allowlist)).map(toMcpTool);
}

/**
 * The tool a `tools/call` names, if the key may see it, with the automation row it was built from (the run begins
 * from it). @example const { tool } = await findMcpTool(db, operatorId, null, 'kyc-check')
 */
export async function findMcpTool(
  db: Db,
  operatorId: string,
  allowlist: string[] | null,
  name: string,
): Promise<{ tool: McpTool; source: McpToolSource } | undefined> {
  const [source] = await listMcpToolSources(db, operatorId, allowlist, name);
  return source && { tool: toMcpTool(source), source };
}
