import { toMcpTool, type McpTool } from '../../core/mcpTool';
import { listMcpToolSources } from '../../db/queries/mcpTools';
import type { CachedMcpTool } from '../caches';
import type { AppDeps } from '../deps';

/**
 * The largest definition (`nodes` and `edges` as JSON text) a process holds for `tools/call`: with at most 1,000
 * tools held, an instance's heap stays bounded whatever tenants store; a larger tool is read at every call.
 */
const CACHED_DEFINITION_BYTES = 32 * 1024;

/** @example const tools = await listMcpTools(db, operatorId, principal.mcpAutomationAllowlist) */
export async function listMcpTools(db: AppDeps['db'], operatorId: string, allowlist: string[] | null): Promise<McpTool[]> {
  return (await listMcpToolSources(db, operatorId, allowlist)).map(toMcpTool);
}

/**
 * The tool a `tools/call` names, if the key may see it, with the automation row it was built from (the run begins
 * from it). Held by the process's cache (api/caches.ts) until one of the operator's automations changes as a tool or
 * its settings change; shared between requests, so read-only.
 *
 * @example const { tool } = await findMcpTool(deps, operatorId, null, 'kyc-check')
 */
export async function findMcpTool(
  deps: Pick<AppDeps, 'db' | 'caches'>,
  operatorId: string,
  allowlist: string[] | null,
  name: string,
): Promise<CachedMcpTool | undefined> {
  const found = await deps.caches.mcpTools.get(
    `${operatorId}:${name}`,
    async () => {
      const [source] = await listMcpToolSources(deps.db, operatorId, null, name);
      return source && { tool: toMcpTool(source), source };
    },
    (held) => held.source.definition_bytes <= CACHED_DEFINITION_BYTES,
  );
  return found && (allowlist === null || allowlist.includes(found.source.id)) ? found : undefined;
}
