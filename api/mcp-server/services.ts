import type { AppDeps } from '../deps';
import { McpCallCancellation } from './callCancellation';
import { connectionStringOf } from './dedicatedConnection';
import { McpStreamHub } from './streamHub';

/** What every MCP route works with, built once per app: the stream hub (its PostgreSQL listener) and call cancellation. */
export interface McpServices {
  deps: AppDeps;
  hub: McpStreamHub;
  cancellation: McpCallCancellation;
}

export function createMcpServices(deps: AppDeps): McpServices {
  const hub = new McpStreamHub({
    db: deps.db,
    connectionString: connectionStringOf(deps.db),
    affinity: deps.config.MCP_CROSS_INSTANCE_AFFINITY,
    maxStreamsPerOperator: deps.config.MCP_MAX_STREAMS_PER_OPERATOR,
    logger: deps.logger,
  });
  return { deps, hub, cancellation: new McpCallCancellation(deps) };
}
