import type { AutomationNode } from '../types';
import type { Param } from './checks';

/** A JSON Schema whose instances are objects: what MCP accepts as a tool's `outputSchema`. */
export interface ObjectSchema {
  type: 'object';
  [keyword: string]: unknown;
}

/** MCP 2025-06-18 `ToolAnnotations`: hints an agent host uses to decide whether to ask before calling a tool. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const READ_OUTSIDE: ToolAnnotations = { ...READ, openWorldHint: true };
/** A write whose meaning the platform cannot see (a supplier's POST, a gateway operation): assume the worst. */
export const UNKNOWN_WRITE_OUTSIDE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/** Where the dashboard's palette lists a node type. */
export type NodeGroup = 'trigger' | 'condition' | 'action';

/**
 * Which edges may leave a node: `required` — every edge carries `when` (a condition's yes/no); `optional` — an edge
 * may carry `when` to follow one outcome and one without it is always taken (`action.wait_for_event`); `none`.
 */
export type EdgeBranches = 'required' | 'optional' | 'none';

/** What every node type declares: its params rule and what the editor shows (the dashboard's React parts stay in web/). */
export interface NodeModule {
  label: string;
  description: string;
  group: NodeGroup;
  /** The params a step of this type starts with in the editor. */
  defaults: Record<string, unknown>;
  /** Exactly the params the type takes, each with its rule (`checkParams`). */
  params: Record<string, Param>;
  /** Which edges may leave it; the branch an output takes is in ./branches.ts, which workflow code reads. */
  branches: EdgeBranches;
}

/** An action also declares its output (the run's and an MCP tool's output schema) and what it does to the world. */
export interface ActionModule extends NodeModule {
  group: 'action';
  output: ObjectSchema;
  /** Its contribution to an MCP tool's annotations; safe where the platform cannot know. */
  effect: (node: AutomationNode) => ToolAnnotations;
  /** How long a step may hold its run on purpose, in seconds (an MCP tool's wait budget, core/mcpTool.ts); none when absent. */
  holdsSeconds?: (params: Record<string, unknown>) => number;
}

export const objectOf = (properties: Record<string, unknown>, required: string[]): ObjectSchema => ({ type: 'object', properties, required });
export const TEXT = { type: 'string' };
