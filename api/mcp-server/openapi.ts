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
    title: z.string().describe("The workflow's display name"),
    description: z.string(),
    inputSchema: z.object({ type: z.literal('object'), properties: z.record(z.string(), z.unknown()), required: z.array(z.string()) }),
    outputSchema: z
      .object({ type: z.literal('object') })
      .catchall(z.unknown())
      .optional()
      .describe("JSON Schema of structuredContent; present when some action runs on every completed run (the run's output is the last completed action's)"),
    annotations: z
      .object({ readOnlyHint: z.boolean(), destructiveHint: z.boolean(), idempotentHint: z.boolean(), openWorldHint: z.boolean() })
      .describe('Derived from every action the workflow can run; unknown writes (http POST/PATCH, gateway calls) count as destructive, not idempotent, open-world'),
  }),
);

registry.register(
  'McpToolCallResult',
  z.object({
    content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
    structuredContent: z.record(z.string(), z.unknown()).optional().describe("A completed run's output, when the tool has an outputSchema"),
    isError: z.boolean(),
    _meta: z.object({ execution_id: z.string().nullable(), duration_ms: z.number() }),
  }),
);
registry.register('McpToolsListResult', z.object({ tools: z.array(McpTool) }));

const headers = z.object({
  'mcp-session-id': z.string().optional().describe('Session id; with params._meta.progressToken, progress goes to /mcp-server/events?session=<id>'),
  'mcp-protocol-version': z.string().optional().describe('2025-06-18 (also accepted: 2025-03-26, 2024-11-05, 2025-11-25)'),
});

/** `tools/list` and its answer (docs/mcp.md); test/integration/openapi-examples.test.ts validates both. */
const toolsListRequest = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const toolsListResult = {
  jsonrpc: '2.0',
  id: 1,
  result: {
    tools: [
      {
        name: 'kyc_check',
        title: 'KYC check',
        description: 'Checks a player with the KYC supplier and stores kyc_status',
        inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] },
        outputSchema: { type: 'object', properties: { externalId: { type: 'string' }, key: { type: 'string' }, value: {} }, required: ['externalId', 'key'] },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      },
    ],
  },
};

const postResponses = {
  200: (() => {
    const json = jsonContent(
      z.union([JsonRpcResult, JsonRpcError]),
      'Result; also -32601 method not found and -32602 invalid params. Execution failures are results with isError: true. ' +
        'A tools/call with params._meta.progressToken from a client accepting text/event-stream is answered as text/event-stream: ' +
        'notifications/progress frames, then the result, then the end (without the result when the client cancelled the call)',
      toolsListResult,
    );
    return { ...json, content: { ...json.content, 'text/event-stream': { schema: z.string() } } };
  })(),
  202: { description: 'Notification or client response accepted (no body); notifications/cancelled cancels the run of that session’s tools/call' },
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

const standaloneStream = {
  description:
    'text/event-stream: `: stream open`, `: ping` every MCP_HEARTBEAT_MS, and `event: message` frames of ' +
    'notifications/tools/list_changed when the operator’s tool list changes. Shares the operator’s ' +
    'MCP_MAX_STREAMS_PER_OPERATOR slots with /mcp-server/events.',
  security: [{ [bearerApiKey.name]: [] }],
  responses: {
    200: { description: 'The event stream', content: { 'text/event-stream': { schema: z.string() } } },
    400: jsonContent(JsonRpcError, '-32600: unsupported MCP-Protocol-Version or malformed Mcp-Session-Id'),
    401: jsonContent(JsonRpcError, '-32001 code: AUTH_MISSING, AUTH_INVALID_FORMAT, AUTH_INVALID or AUTH_REVOKED'),
    403: jsonContent(JsonRpcError, '-32001 code: MCP_NOT_ENABLED, AUTH_OPERATOR_MISMATCH (legacy path) or ORIGIN_NOT_ALLOWED'),
    406: jsonContent(JsonRpcError, '-32001 code: NOT_ACCEPTABLE (Accept lacks text/event-stream)'),
    429: jsonContent(JsonRpcError, '-32001 code: MCP_SESSION_LIMIT_EXCEEDED, with Retry-After'),
  },
};

registry.registerPath({
  method: 'get',
  path: '/mcp-server',
  summary: 'The MCP transport’s standalone stream: notifications/tools/list_changed',
  ...standaloneStream,
  request: { headers },
});

registry.registerPath({
  method: 'get',
  path: '/mcp-server/{operatorId}',
  summary: 'The standalone stream on the legacy path (the operator id must be the key’s operator)',
  ...standaloneStream,
  request: { params: z.object({ operatorId: z.string() }), headers },
});

registry.registerPath({
  method: 'get',
  path: '/mcp-server/events',
  summary: 'Event-stream channel: notifications/progress frames for calls sent with Mcp-Session-Id, and notifications/tools/list_changed',
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
