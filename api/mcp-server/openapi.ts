import { z } from 'zod';
import { bearerApiKey, jsonContent, registry } from '../openapi/registry';

const JsonRpcId = z.union([z.string(), z.number()]);

const JsonRpcRequest = registry.register(
  'McpJsonRpcRequest',
  z.object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.optional().describe('Absent for a notification (answered 202 with no body)'),
    method: z.string().describe('initialize, notifications/initialized, ping, tools/list or tools/call'),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
);

const JsonRpcResult = z.object({ jsonrpc: z.literal('2.0'), id: JsonRpcId, result: z.unknown() });

const JsonRpcError = registry.register(
  'McpJsonRpcError',
  z.object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.nullable(),
    error: z.object({ code: z.number().int(), message: z.string().describe('`code: <CODE>` for service codes (-32001)'), data: z.unknown().optional() }),
  }),
);

const McpTool = registry.register(
  'McpTool',
  z.object({
    name: z.string().describe("The workflow's mcp_tool_name"),
    description: z.string(),
    inputSchema: z.object({ type: z.literal('object'), properties: z.record(z.string(), z.unknown()), required: z.array(z.string()) }),
  }),
);

registry.register(
  'McpToolCallResult',
  z.object({
    content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
    isError: z.boolean(),
    _meta: z.object({ execution_id: z.string().nullable(), duration_ms: z.number() }),
  }),
);
registry.register('McpToolsListResult', z.object({ tools: z.array(McpTool) }));

const headers = z.object({
  'mcp-session-id': z.string().optional().describe('Session id; with params._meta.progressToken, progress goes to /mcp-server/events?session=<id>'),
  'mcp-protocol-version': z.string().optional().describe('2025-06-18 (also accepted: 2025-03-26, 2024-11-05, 2025-11-25)'),
});

/** `tools/list` and its answer (README "MCP server"); test/integration/openapi-examples.test.ts validates both. */
const toolsListRequest = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const toolsListResult = {
  jsonrpc: '2.0',
  id: 1,
  result: {
    tools: [
      {
        name: 'kyc_check',
        description: 'Checks a player with the KYC supplier and stores kyc_status',
        inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] },
      },
    ],
  },
};

const postResponses = {
  200: jsonContent(
    z.union([JsonRpcResult, JsonRpcError]),
    'Result; also -32601 method not found and -32602 invalid params. Execution failures are results with isError: true',
    toolsListResult,
  ),
  202: { description: 'Notification or client response accepted (no body)' },
  400: jsonContent(JsonRpcError, '-32700 parse error, -32600 invalid request (also an unsupported MCP-Protocol-Version or a malformed Mcp-Session-Id)'),
  401: jsonContent(JsonRpcError, '-32001 code: AUTH_MISSING, AUTH_INVALID_FORMAT, AUTH_INVALID or AUTH_REVOKED'),
  403: jsonContent(JsonRpcError, '-32001 code: MCP_NOT_ENABLED, AUTH_OPERATOR_MISMATCH (legacy path) or ORIGIN_NOT_ALLOWED'),
  429: jsonContent(JsonRpcError, '-32001 code: RATE_LIMITED (class mcp), with Retry-After'),
  500: jsonContent(JsonRpcError, '-32603 internal error'),
};

const description =
  'JSON-RPC 2.0 (one message per request; batches are -32600). Methods: initialize (result protocolVersion 2025-06-18, ' +
  'Mcp-Session-Id response header), notifications/initialized, ping, tools/list (McpToolsListResult), tools/call ' +
  '({ name, arguments, _meta?: { progressToken } } → McpToolCallResult; the workflow runs now with source mcp).';

registry.registerPath({
  method: 'post',
  path: '/mcp-server',
  summary: 'MCP server: operator workflows as tools',
  description,
  security: [{ [bearerApiKey.name]: [] }],
  request: { headers, body: jsonContent(JsonRpcRequest, 'A JSON-RPC request or notification', toolsListRequest) },
  responses: postResponses,
});

registry.registerPath({
  method: 'post',
  path: '/mcp-server/{operatorId}',
  summary: 'MCP server, legacy path with the operator id (must be the key’s operator)',
  description,
  security: [{ [bearerApiKey.name]: [] }],
  request: { params: z.object({ operatorId: z.string() }), headers, body: jsonContent(JsonRpcRequest, 'A JSON-RPC request or notification', toolsListRequest) },
  responses: postResponses,
});

registry.registerPath({
  method: 'get',
  path: '/mcp-server',
  summary: 'No standalone stream on the MCP endpoint: always 405 (use /mcp-server/events)',
  responses: { 405: jsonContent(JsonRpcError, '-32001 code: METHOD_NOT_ALLOWED, Allow: POST, OPTIONS') },
});

registry.registerPath({
  method: 'get',
  path: '/mcp-server/events',
  summary: 'Event-stream channel: notifications/progress frames for calls sent with Mcp-Session-Id',
  description:
    'text/event-stream: a first `: stream open` comment once registered, `: ping` every MCP_HEARTBEAT_MS (15 s), and ' +
    '`event: message` frames holding notifications/progress for tools/call requests of this operator sent with ' +
    'Mcp-Session-Id: <session> and params._meta.progressToken. Without session: one comment frame, then the response ends.',
  security: [{ [bearerApiKey.name]: [] }],
  request: { query: z.object({ session: z.string().max(128).optional() }) },
  responses: {
    200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } },
    400: jsonContent(JsonRpcError, '-32600: malformed session'),
    401: jsonContent(JsonRpcError, '-32001 code: AUTH_MISSING, AUTH_INVALID_FORMAT, AUTH_INVALID or AUTH_REVOKED'),
    403: jsonContent(JsonRpcError, '-32001 code: MCP_NOT_ENABLED or ORIGIN_NOT_ALLOWED'),
    429: jsonContent(JsonRpcError, '-32001 code: MCP_SESSION_LIMIT_EXCEEDED (MCP_MAX_STREAMS_PER_OPERATOR streams already open), with Retry-After'),
  },
});
