import { z } from 'zod';
import { registry } from '../openapi/registry';

const JsonRpcId = z.union([z.string(), z.number()]);

export const JsonRpcRequest = registry.register(
  'McpJsonRpcRequest',
  z.object({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.optional().describe('Absent for a notification (answered 202 with no body)'),
    method: z.string().describe('initialize, notifications/initialized, ping, tools/list or tools/call'),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
);

export const JsonRpcResult = z.object({ jsonrpc: z.literal('2.0'), id: JsonRpcId, result: z.unknown() });

export const JsonRpcError = registry.register(
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
      .describe(
        'Derived from every action the workflow can run; unknown writes (http POST/PATCH, gateway calls) count as destructive, not idempotent, open-world',
      ),
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

export const McpHeaders = z.object({
  'mcp-session-id': z.string().optional().describe('Session id; with params._meta.progressToken, progress goes to /mcp-server/events?session=<id>'),
  'mcp-protocol-version': z.string().optional().describe('2025-06-18 (also accepted: 2025-03-26, 2024-11-05, 2025-11-25)'),
});

export const LegacyPathParams = z.object({ operatorId: z.string() });
export const EventsQuery = z.object({ session: z.string().max(128).optional() });
