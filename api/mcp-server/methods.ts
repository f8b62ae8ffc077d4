import type { Context } from 'koa';
import { name as packageName, version } from '../../package.json';
import {
  errorResponse, isPlainObject, JSONRPC_ERROR, MCP_PROTOCOL_VERSION, resultResponse, type JsonRpcId, type JsonRpcResponse,
} from '../../core/mcpJsonRpc';
import { listMcpTools } from '../../db/queries/mcpTools';
import type { AppDeps } from '../deps';
import type { ApiKeyPrincipal } from '../middleware/authenticate';
import type { McpStreamHub } from './streamHub';
import { callTool } from './toolsCall';

/** `serverInfo` of `initialize` (spec 4.6, 9): the service's own short name and its release version. */
export const SERVER_INFO = { name: packageName, version } as const;

export interface McpRequest {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown> | unknown[] | undefined;
}

export interface DispatchContext {
  deps: AppDeps;
  hub: McpStreamHub;
  ctx: Context;
  principal: ApiKeyPrincipal;
  sessionId: string | undefined;
}

function initialize(id: JsonRpcId, params: Record<string, unknown>): JsonRpcResponse {
  if (typeof params.protocolVersion !== 'string') {
    return errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, 'Invalid params: protocolVersion must be a string');
  }
  return resultResponse(id, {
    protocolVersion: MCP_PROTOCOL_VERSION,
    capabilities: { tools: { listChanged: false } },
    serverInfo: SERVER_INFO,
  });
}

async function listTools(deps: AppDeps, principal: ApiKeyPrincipal, id: JsonRpcId): Promise<JsonRpcResponse> {
  const tools = await listMcpTools(deps.db, principal.operatorId, principal.mcpWorkflowAllowlist);
  return resultResponse(id, { tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) });
}

/**
 * Answers one MCP request (spec 4.6 method table); anything else is `-32601`. Params, when given, must be an
 * object (`-32602` otherwise).
 *
 * @example await dispatch({ deps, hub, ctx, principal, sessionId }, { id: 1, method: 'ping', params: undefined }) // { jsonrpc: '2.0', id: 1, result: {} }
 */
export async function dispatch(context: DispatchContext, request: McpRequest): Promise<JsonRpcResponse> {
  const { id, method } = request;
  const known = ['initialize', 'ping', 'tools/list', 'tools/call'];
  if (!known.includes(method)) return errorResponse(id, JSONRPC_ERROR.METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 100)}`);
  if (request.params !== undefined && !isPlainObject(request.params)) {
    return errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, 'Invalid params: params must be an object');
  }
  const params = request.params ?? {};
  switch (method) {
    case 'initialize':
      return initialize(id, params);
    case 'ping':
      return resultResponse(id, {});
    case 'tools/list':
      return listTools(context.deps, context.principal, id);
    default: {
      const log = (error: Error) => context.ctx.state.log?.warn({ err: { name: error.name, message: error.message } }, 'MCP progress frame not published');
      return callTool(context.deps, context.hub, context.principal, id, params, context.sessionId, log);
    }
  }
}
