import { toMcpTool, type McpTool, type McpToolSource } from '../../core/mcpTool';
import { listMcpToolSources } from '../../db/queries/mcpTools';
import type { CachedMcpTools } from '../caches';
import type { AppDeps } from '../deps';

type ToolDeps = Pick<AppDeps, 'db' | 'caches'>;

/**
 * Every tool of the operator, from the process's cache (api/caches.ts): read once, then dropped when one of the
 * operator's automations changes as a tool or its settings change. Shared between requests: read-only.
 */
function operatorTools(deps: ToolDeps, operatorId: string): Promise<CachedMcpTools> {
  return deps.caches.mcpTools
    .get(operatorId, async () => (await listMcpToolSources(deps.db, operatorId)).map((source) => ({ tool: toMcpTool(source), source })))
    .then((tools) => tools ?? []);
}

/** A key's allowlist: `null` lets it see every tool, an empty list none. */
const allowedBy = (allowlist: string[] | null) => (entry: { source: McpToolSource }) => allowlist === null || allowlist.includes(entry.source.id);

/** @example const tools = await listMcpTools(deps, operatorId, principal.mcpAutomationAllowlist) */
export async function listMcpTools(deps: ToolDeps, operatorId: string, allowlist: string[] | null): Promise<McpTool[]> {
  return (await operatorTools(deps, operatorId)).filter(allowedBy(allowlist)).map((entry) => entry.tool);
}

/**
 * The tool a `tools/call` names, if the key may see it, with the automation row it was built from (the run begins
 * from it). @example const { tool } = await findMcpTool(deps, operatorId, null, 'kyc-check')
 */
export async function findMcpTool(
  deps: ToolDeps,
  operatorId: string,
  allowlist: string[] | null,
  name: string,
): Promise<{ tool: McpTool; source: McpToolSource } | undefined> {
  const allowed = allowedBy(allowlist);
  return (await operatorTools(deps, operatorId)).find((entry) => entry.source.mcp_tool_name === name && allowed(entry));
}
