import { name as packageName, version } from '../../package.json';
import { errorResponse, isPlainObject, JSONRPC_ERROR, MCP_PROTOCOL_VERSION, resultResponse, type JsonRpcId, type JsonRpcResponse } from '../../core/mcpJsonRpc';
import { completeResult, LEGACY_TASKS_REVISION, META_KEY, MODERN_REVISION, REVISION_ERROR } from '../../core/mcpRevision';
import { showsTaskTools } from '../../core/mcpSession';
import { TASKS_EXTENSION, taskSupportOf } from '../../core/mcpTasks';
import { listen } from './listen';
import { listMcpTools } from './tools';
import { AUDIENCE_TOOL, seesAudienceTool } from './audienceTool';
import type { DispatchContext, McpAnswer } from './dispatchContext';
import { cancelTask, getTask, listTasks, taskResult, updateTask } from './tasks';
import { callTool } from './toolsCall';

/** `serverInfo` of `initialize` (spec 4.6, 9): the service's own short name and its release version. */
export const SERVER_INFO = { name: packageName, version } as const;

export interface McpRequest {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown> | unknown[] | undefined;
}

/** What the session-based revisions' servers can do for tools run as tasks (2025-11-25). */
const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * `initialize` (session-based revisions): 2025-11-25 when the client asks for it — the revision of tasks —, the
 * spec's 2025-06-18 for anything else (spec 9).
 */
function initialize(id: JsonRpcId, params: Record<string, unknown>): JsonRpcResponse {
  if (typeof params.protocolVersion !== 'string') {
    return errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, 'Invalid params: protocolVersion must be a string');
  }
  const tasks = params.protocolVersion === LEGACY_TASKS_REVISION;
  return resultResponse(id, {
    protocolVersion: tasks ? LEGACY_TASKS_REVISION : MCP_PROTOCOL_VERSION,
    capabilities: { tools: { listChanged: true }, ...(tasks ? { tasks: LEGACY_TASKS_CAPABILITY } : {}) },
    serverInfo: SERVER_INFO,
  });
}

/** How long a 2026-07-28 client may reuse a `tools/list` or `server/discover` answer: tools change when automations are saved. */
export const TOOLS_LIST_TTL_MS = 30_000;

/** `server/discover` (2026-07-28): the revisions, capabilities and extensions of this endpoint. */
function discover(id: JsonRpcId): JsonRpcResponse {
  return resultResponse(id, {
    supportedVersions: [MODERN_REVISION],
    capabilities: { tools: { listChanged: true }, extensions: { [TASKS_EXTENSION]: {} } },
    instructions: "Each tool runs one of the operator's automations. Tools that can wait run as tasks: poll tasks/get.",
    ttlMs: TOOLS_LIST_TTL_MS,
    cacheScope: 'private',
  });
}

/**
 * `tools/list`: the key's tools, but a task-required one only to a client that declared tasks (showsTaskTools) — one
 * that did not could only be refused its call (`-32021`, `-32601`), so it is not offered the tool at all.
 */
async function listTools(context: DispatchContext, id: JsonRpcId): Promise<JsonRpcResponse> {
  const { deps, principal, revision } = context;
  const tools = await listMcpTools(deps.db, principal.operatorId, principal.mcpAutomationAllowlist);
  const supportOf = (waitsMs: number) => taskSupportOf(waitsMs, deps.config.MCP_CALL_WAIT_MS);
  const callable = showsTaskTools(revision, context.sessionId) ? tools : tools.filter((tool) => supportOf(tool.waitsMs) !== 'required');
  const builtIn = (await seesAudienceTool(context))
    ? [{ ...AUDIENCE_TOOL, ...(revision.version === LEGACY_TASKS_REVISION ? { execution: { taskSupport: 'forbidden' } } : {}) }]
    : [];
  const described = callable.map(({ name, title, description, inputSchema, outputSchema, annotations, waitsMs }) => ({
    name,
    title,
    description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations,
    ...(revision.version === LEGACY_TASKS_REVISION ? { execution: { taskSupport: supportOf(waitsMs) } } : {}),
  }));
  return resultResponse(id, { tools: [...builtIn, ...described], ...(revision.modern ? { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'private' } : {}) });
}

/** 2026-07-28 types every result (`resultType`) and names the server in each one's `_meta`. */
function modernResult(response: JsonRpcResponse): JsonRpcResponse {
  if (!('result' in response) || !isPlainObject(response.result)) return response;
  const result = response.result;
  const meta = isPlainObject(result._meta) ? result._meta : {};
  return resultResponse(response.id, completeResult({ ...result, _meta: { ...meta, [META_KEY.serverInfo]: SERVER_INFO } }));
}

const SESSION_METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'];
// 2026-07-28 removed `ping` (and `initialize`): they are 404 -32601 there.
const MODERN_METHODS = ['server/discover', 'subscriptions/listen', 'tools/list', 'tools/call', 'tasks/get', 'tasks/update', 'tasks/cancel'];
/** The methods of the tasks extension (2026-07-28): a request that does not declare the extension is refused them. */
const MODERN_TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'];

/**
 * Answers one MCP request (spec 4.6 method table); anything else is `-32601`. Params, when given, must be an
 * object (`-32602` otherwise). Only `tools/call` and `subscriptions/listen` may answer with a stream (`context.openStream`).
 *
 * @example await dispatch(context, { id: 1, method: 'ping', params: undefined }) // { response: { jsonrpc: '2.0', id: 1, result: {} } }
 */
export async function dispatch(context: DispatchContext, request: McpRequest): Promise<McpAnswer> {
  const answer = await dispatchMethod(context, request);
  return context.revision.modern ? { ...answer, response: modernResult(answer.response) } : answer;
}

async function dispatchMethod(context: DispatchContext, request: McpRequest): Promise<McpAnswer> {
  const { id, method } = request;
  const known = context.revision.modern ? MODERN_METHODS : SESSION_METHODS;
  if (!known.includes(method) && method !== 'server/discover') {
    return { response: errorResponse(id, JSONRPC_ERROR.METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 100)}`) };
  }
  if (context.revision.modern && !context.revision.tasks && MODERN_TASK_METHODS.includes(method)) {
    const message = `${method} belongs to the ${TASKS_EXTENSION} extension: declare it in _meta["${META_KEY.clientCapabilities}"].extensions`;
    const data = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
    return { response: errorResponse(id, REVISION_ERROR.MISSING_CAPABILITY, message, data), status: 400 };
  }
  if (request.params !== undefined && !isPlainObject(request.params)) {
    return { response: errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, 'Invalid params: params must be an object') };
  }
  const params = request.params ?? {};
  switch (method) {
    case 'initialize':
      return { response: initialize(id, params) };
    case 'server/discover':
      return { response: modernResult(discover(id)) };
    case 'ping':
      return { response: resultResponse(id, {}) };
    case 'tools/list':
      return { response: await listTools(context, id) };
    case 'tasks/get':
      return getTask(context, id, params);
    case 'tasks/result':
      return taskResult(context, id, params);
    case 'tasks/cancel':
      return cancelTask(context, id, params);
    case 'tasks/list':
      return listTasks(context, id, params);
    case 'tasks/update':
      return updateTask(context, id, params);
    case 'subscriptions/listen':
      return listen(context, id, params);
    default:
      return callTool(context, id, params);
  }
}
