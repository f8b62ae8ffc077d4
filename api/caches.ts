import type { Logger } from 'pino';
import type { Config } from '../core/config';
import type { McpTool, McpToolSource } from '../core/mcpTool';
import { ChangeFeed, connectionStringOf } from '../db/changeFeed';
import type { Db } from '../db/knex';
import type { ApiKeyRow } from '../db/queries/apiKeys';
import type { MemberRow } from '../db/queries/identity';
import type { OperatorSettings } from '../db/queries/settings';
import { ReadThroughCache } from '../db/readThroughCache';

/** One MCP tool with the automation row it was built from, by `<operatorId>:<tool name>` (api/mcp-server/tools.ts). */
export type CachedMcpTool = { tool: McpTool; source: McpToolSource };

/**
 * The rows every request reads, kept in memory for `CACHE_TTL_MS` and dropped on change by the
 * `cache_invalidation` feed: API keys by hash, members by `operatorId:memberId`, settings by operator, and the
 * MCP tools `tools/call` names by `operatorId:name` (all of an operator's dropped when one of its automations changes
 * as a tool, or its settings: a tool's input schema reads the template).
 */
export interface AppCaches {
  feed: ChangeFeed;
  apiKeys: ReadThroughCache<ApiKeyRow>;
  members: ReadThroughCache<MemberRow>;
  settings: ReadThroughCache<OperatorSettings>;
  mcpTools: ReadThroughCache<CachedMcpTool>;
}

export function createCaches(db: Db, config: Config, logger: Logger): AppCaches {
  const feed = new ChangeFeed(connectionStringOf(db), logger);
  const ttlMs = config.CACHE_TTL_MS;
  if (ttlMs > 0) feed.start();
  return {
    feed,
    apiKeys: new ReadThroughCache<ApiKeyRow>(feed, { table: 'api_keys', ttlMs }),
    members: new ReadThroughCache<MemberRow>(feed, { table: 'members', ttlMs }),
    settings: new ReadThroughCache<OperatorSettings>(feed, { table: 'operator_settings', ttlMs }),
    mcpTools: new ReadThroughCache<CachedMcpTool>(feed, { table: ['automations', 'operator_settings'], ttlMs, maxEntries: 1_000, scoped: true }),
  };
}
