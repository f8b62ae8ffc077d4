import { triggerFor } from './automations/graph';
import { heldSecondsOf } from './automations/nodes';
import { runOutputSchema, type ObjectSchema } from './automations/runOutput';
import { effectiveInputSchema } from './automations/triggerSchema';
import type { AutomationEdge, AutomationNode } from './automations/types';
import { toolAnnotations, type ToolAnnotations } from './mcpToolAnnotations';
import type { TemplateSchema } from './templates';

/**
 * One MCP tool (spec 2.12) and the automation behind it. Beyond the spec's fields, MCP 2025-06-18's `title` (the
 * automation's display name), `outputSchema` (only when the automation declares its output) and `annotations`.
 */
export interface McpTool {
  automationId: string;
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
  outputSchema: ObjectSchema | null;
  annotations: ToolAnnotations;
  /** The longest its run can wait on purpose (its delays, and its approvals until they time out), in ms: what decides its task support. */
  waitsMs: number;
}

/** The columns of an exposed automation a tool is built from (db/queries/mcpTools.ts). */
export interface McpToolSource {
  id: string;
  operator_id: string;
  active: boolean;
  version: number;
  name: string;
  description: string;
  mcp_tool_name: string;
  nodes: AutomationNode[];
  edges: AutomationEdge[];
  /** The operator's template, read only for automations with an event trigger (their schema is the event's fields). */
  template_schema: TemplateSchema | null;
  /** The size of `nodes` and `edges` as JSON text: a tool larger than the cache's budget is read at every call. */
  definition_bytes: number;
}

/**
 * The tool an automation is: its `inputSchema` is the effective schema of the trigger an MCP call fires (DESIGN.md
 * "Workflows"); an automation without an MCP trigger takes no arguments and declares nothing.
 */
export function toMcpTool(source: McpToolSource): McpTool {
  const definition = { nodes: source.nodes, edges: source.edges };
  const trigger = triggerFor(definition, 'mcp');
  const inputSchema = trigger ? effectiveInputSchema(trigger, source.template_schema) : { type: 'object' as const, properties: {}, required: [] };
  return {
    automationId: source.id,
    name: source.mcp_tool_name,
    title: source.name,
    description: source.description || source.name,
    inputSchema,
    outputSchema: trigger ? runOutputSchema(definition, trigger.id) : null,
    annotations: trigger ? toolAnnotations(definition, trigger.id) : toolAnnotations({ nodes: [], edges: [] }, ''),
    waitsMs: source.nodes.reduce((sum, node) => sum + heldSecondsOf(node) * 1000, 0),
  };
}
