import { z } from 'zod';
import type { AppDeps } from '../deps';
import { jsonContent } from '../openapi/registry';
import { eventStreamHandler, standaloneStreamHandler } from './events';
import * as examples from './examples';
import { postHandler } from './post';
import { mcp } from './area';
import { EventsQuery, JsonRpcError, JsonRpcRequest, JsonRpcResult, LegacyPathParams, McpHeaders } from './schema';

const eventStream = { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } };
const unauthenticated = jsonContent(JsonRpcError, '-32001 code: AUTH_MISSING, AUTH_INVALID_FORMAT, AUTH_INVALID or AUTH_REVOKED');
const forbidden = jsonContent(JsonRpcError, '-32001 code: MCP_NOT_ENABLED, AUTH_OPERATOR_MISMATCH (legacy path) or ORIGIN_NOT_ALLOWED');

const standaloneStream = {
  description:
    'text/event-stream: `: stream open`, `: ping` every MCP_HEARTBEAT_MS, and `event: message` frames of ' +
    'notifications/tools/list_changed when the operator’s tool list changes. Shares the operator’s ' +
    'MCP_MAX_STREAMS_PER_OPERATOR slots with /mcp-server/events.',
  responses: {
    200: eventStream,
    400: jsonContent(JsonRpcError, '-32600: unsupported MCP-Protocol-Version or malformed Mcp-Session-Id'),
    401: unauthenticated,
    403: forbidden,
    406: jsonContent(JsonRpcError, '-32001 code: NOT_ACCEPTABLE (Accept lacks text/event-stream)'),
    429: jsonContent(JsonRpcError, '-32001 code: MCP_SESSION_LIMIT_EXCEEDED, with Retry-After'),
  },
  ...standaloneStreamHandler,
};

const postResponses = {
  200: (() => {
    const json = jsonContent(
      z.union([JsonRpcResult, JsonRpcError]),
      'Result; also -32601 method not found and -32602 invalid params. Execution failures are results with isError: true. ' +
        'A tools/call with params._meta.progressToken from a client accepting text/event-stream is answered as text/event-stream: ' +
        'notifications/progress frames, then the result, then the end (without the result when the client cancelled the call)',
      examples.toolsListResult,
    );
    return { ...json, content: { ...json.content, 'text/event-stream': { schema: z.string() } } };
  })(),
  202: { description: 'Notification or client response accepted (no body); notifications/cancelled cancels the run of that session’s tools/call' },
  400: jsonContent(JsonRpcError, '-32700 parse error, -32600 invalid request (also an unsupported MCP-Protocol-Version or a malformed Mcp-Session-Id)'),
  401: unauthenticated,
  403: forbidden,
  429: jsonContent(JsonRpcError, '-32001 code: RATE_LIMITED (class mcp), with Retry-After'),
  500: jsonContent(JsonRpcError, '-32603 internal error'),
};
const postDescription =
  'JSON-RPC 2.0 (one message per request; batches are -32600). Methods: initialize (result protocolVersion 2025-06-18, ' +
  'Mcp-Session-Id response header), notifications/initialized, ping, tools/list (McpToolsListResult), tools/call ' +
  '({ name, arguments, _meta?: { progressToken } } → McpToolCallResult; the workflow runs now with source mcp).';
const message = { description: 'A JSON-RPC request or notification', example: examples.toolsListRequest };

mcp.endpoint({
  method: 'get',
  path: '/events',
  summary: 'Event-stream channel: notifications/progress frames for calls sent with Mcp-Session-Id, and notifications/tools/list_changed',
  description:
    'text/event-stream: a first `: stream open` comment once registered, `: ping` every MCP_HEARTBEAT_MS (15 s), and ' +
    '`event: message` frames holding notifications/progress for tools/call requests of this operator sent with ' +
    'Mcp-Session-Id: <session> and params._meta.progressToken. Without session: one comment frame, then the response ends.',
  request: { query: EventsQuery },
  responses: {
    200: eventStream,
    400: jsonContent(JsonRpcError, '-32600: malformed session'),
    401: unauthenticated,
    403: jsonContent(JsonRpcError, '-32001 code: MCP_NOT_ENABLED or ORIGIN_NOT_ALLOWED'),
    429: jsonContent(JsonRpcError, '-32001 code: MCP_SESSION_LIMIT_EXCEEDED (MCP_MAX_STREAMS_PER_OPERATOR streams already open), with Retry-After'),
  },
  ...eventStreamHandler,
});

mcp.endpoint({
  method: 'get',
  path: '/',
  summary: 'The MCP transport’s standalone stream: notifications/tools/list_changed',
  ...standaloneStream,
  request: { headers: McpHeaders },
});

mcp.endpoint({
  method: 'get',
  path: '/:operatorId',
  summary: 'The standalone stream on the legacy path (the operator id must be the key’s operator)',
  ...standaloneStream,
  request: { params: LegacyPathParams, headers: McpHeaders },
});

mcp.endpoint({
  method: 'post',
  path: '/',
  summary: 'MCP server: operator workflows as tools',
  description: postDescription,
  request: { headers: McpHeaders, body: { schema: JsonRpcRequest, ...message } },
  responses: postResponses,
  ...postHandler,
});

mcp.endpoint({
  method: 'post',
  path: '/:operatorId',
  summary: 'MCP server, legacy path with the operator id (must be the key’s operator)',
  description: postDescription,
  request: { params: LegacyPathParams, headers: McpHeaders, body: { schema: JsonRpcRequest, ...message } },
  responses: postResponses,
  ...postHandler,
});

export const createMcpServerRouter = (deps: AppDeps) => mcp.router(deps);
