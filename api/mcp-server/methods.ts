import { name as packageName, version } from '../../package.json';
import { errorResponse, isPlainObject, JSONRPC_ERROR, MCP_PROTOCOL_VERSION, resultResponse, type JsonRpcId, type JsonRpcResponse } from '../../core/mcpJsonRpc';
import { listMcpTools } from './tools';
import type { AppDeps } from '../deps';
import type { ApiKeyPrincipal } from '../middleware/authenticate';
import type { DispatchContext, McpAnswer } from './dispatchContext';
import { callTool } from './toolsCall';

/** `serverInfo` of `initialize` (spec 4.6, 9): the service's own short name and its release version. */
export const SERVER_INFO = { name: packageName, version } as const;

export interface McpRequest {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown> | unknown[] | undefined;
}

function initialize(id: JsonRpcId, params: Record<string, unknown>): JsonRpcResponse {
  if (typeof params.protocolVersion !== 'string') {
    return errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, 'Invalid params: protocolVersion must be a string');
  }
  return resultResponse(id, {
    protocolVersion: MCP_PROTOCOL_VERSION,
    capabilities: { tools: { listChanged: true } },
    serverInfo: SERVER_INFO,
  });
}

async function listTools(deps: AppDeps, principal: ApiKeyPrincipal, id: JsonRpcId): Promise<JsonRpcResponse> {
  const tools = await listMcpTools(deps.db, principal.operatorId, principal.mcpAutomationAllowlist);
  return resultResponse(id, {
    tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      ...(outputSchema ? { outputSchema } : {}),
      annotations,
    })),
  });
}

/**
 * Answers one MCP request (spec 4.6 method table); anything else is `-32601`. Params, when given, must be an
 * object (`-32602` otherwise). Only `tools/call` may answer with a stream (`context.openStream`).
 *
 * @example await dispatch(context, { id: 1, method: 'ping', params: undefined }) // { response: { jsonrpc: '2.0', id: 1, result: {} } }
 */
export async function dispatch(context: DispatchContext, request: McpRequest): Promise<McpAnswer> {
  const { id, method } = request;
  const known = ['initialize', 'ping', 'tools/list', 'tools/call'];
  if (!known.includes(method)) return { response: errorResponse(id, JSONRPC_ERROR.METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 100)}`) };
  if (request.params !== undefined && !isPlainObject(request.params)) {
    return { response: errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, 'Invalid params: params must be an object') };
  }
  const params = request.params ?? {};
  switch (method) {
    case 'initialize':
      return { response: initialize(id, params) };
    case 'ping':
      return { response: resultResponse(id, {}) };
    case 'tools/list':
      return { response: await listTools(context.deps, context.principal, id) };
    default:
      return callTool(context, id, params);
  }
}
