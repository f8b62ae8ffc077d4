import { AudienceDefinitionSchema } from '../../core/audienceDefinition';
import { errorResponse, JSONRPC_ERROR, resultResponse, type JsonRpcId } from '../../core/mcpJsonRpc';
import type { McpTool } from '../../core/mcpTool';
import { audienceMembers, audienceSizes, findAudience, listAudiences, type AudienceRow } from '../../db/queries/audiences';
import type { DispatchContext, McpAnswer } from './dispatchContext';

/** Members one call reads at most; `offset` pages further. */
export const AUDIENCE_TOOL_PAGE_MAX = 100;
/** Days of size history one answer carries. */
export const AUDIENCE_TOOL_SIZE_DAYS = 30;

/**
 * The platform's one built-in MCP tool (docs/mcp.md "Built-in tools", docs/analytics.md "Audiences"): reads the
 * operator's saved audiences, one audience's size history and a page of its members. Read-only, no run. Its name has a
 * dot, which no automation's tool name (a `[a-z0-9_]` slug) can have, so it never shadows one.
 */
export const AUDIENCE_TOOL: Pick<McpTool, 'name' | 'title' | 'description' | 'inputSchema' | 'annotations'> = {
  name: 'analytics.audiences',
  title: 'Audiences',
  description:
    'Without audienceId: every saved player audience (id, name, definition, size). With audienceId: that audience, its size per day for the last 30 days, and a page of its members (external ids and when they entered, latest first).',
  inputSchema: {
    type: 'object',
    properties: {
      audienceId: { type: 'string', description: 'An audience id (aud_…) from the list' },
      limit: { type: 'integer', minimum: 1, maximum: AUDIENCE_TOOL_PAGE_MAX, description: 'Members per page (default 50)' },
      offset: { type: 'integer', minimum: 0, maximum: 1_000_000, description: 'Members to skip (default 0)' },
    },
    required: [],
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/**
 * Listed and callable for a key (or grant) that may call every tool — an allowlist names automations, and this is none
 * of them — and only while the operator keeps at least one audience: there is nothing to read before, and an operator
 * without audiences sees exactly its automations, as before.
 */
export async function seesAudienceTool(context: DispatchContext): Promise<boolean> {
  if (context.principal.mcpAutomationAllowlist !== null) return false;
  return (await context.deps.db('audiences').where({ operator_id: context.principal.operatorId }).first('id')) !== undefined;
}

const summary = (row: AudienceRow) => ({
  id: row.id,
  name: row.name,
  definition: AudienceDefinitionSchema.parse(row.definition),
  size: row.size,
  evaluated_at: row.evaluated_at?.toISOString() ?? null,
});

const toolResult = (data: Record<string, unknown>, isError = false) => ({
  content: [{ type: 'text', text: JSON.stringify(data) }],
  ...(isError ? {} : { structuredContent: data }),
  isError,
});

function integerArgument(args: Record<string, unknown>, name: string, min: number, max: number, fallback: number): number | string {
  const value = args[name];
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : `${name} must be an integer from ${min} to ${max}`;
}

/** `tools/call` of `analytics.audiences`: arguments outside their bounds are `-32602`; an unknown audience is a tool error. */
export async function callAudienceTool(context: DispatchContext, id: JsonRpcId, args: unknown): Promise<McpAnswer> {
  const invalid = (message: string): McpAnswer => ({ response: errorResponse(id, JSONRPC_ERROR.INVALID_PARAMS, `Invalid arguments: ${message}`) });
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return invalid('arguments must be an object');
  const input = args as Record<string, unknown>;
  const unknown = Object.keys(input).filter((key) => !(key in AUDIENCE_TOOL.inputSchema.properties));
  if (unknown.length > 0) return invalid(`unknown argument ${unknown[0]!.slice(0, 50)}`);
  const limit = integerArgument(input, 'limit', 1, AUDIENCE_TOOL_PAGE_MAX, 50);
  const offset = integerArgument(input, 'offset', 0, 1_000_000, 0);
  if (typeof limit === 'string') return invalid(limit);
  if (typeof offset === 'string') return invalid(offset);
  const { db } = context.deps;
  const operatorId = context.principal.operatorId;
  if (input.audienceId === undefined) {
    const audiences = await listAudiences(db, operatorId);
    return { response: resultResponse(id, toolResult({ audiences: audiences.map(summary) })) };
  }
  if (typeof input.audienceId !== 'string' || input.audienceId.length > 100) return invalid('audienceId must be a string of at most 100 characters');
  const audience = await findAudience(db, operatorId, input.audienceId);
  if (!audience) return { response: resultResponse(id, toolResult({ error: 'NOT_FOUND', message: `No audience ${input.audienceId}` }, true)) };
  const today = new Date();
  const start = new Date(today.getTime() - (AUDIENCE_TOOL_SIZE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const [members, sizes] = await Promise.all([
    audienceMembers(db, operatorId, audience.id, { limit, offset }),
    audienceSizes(db, operatorId, audience.id, { start, end: today.toISOString().slice(0, 10) }),
  ]);
  const data = {
    audience: summary(audience),
    sizes,
    members: members.map((member) => ({ external_id: member.external_id, entered_at: member.entered_at.toISOString() })),
    total: audience.size,
    has_more: offset + members.length < audience.size,
  };
  return { response: resultResponse(id, toolResult(data)) };
}
