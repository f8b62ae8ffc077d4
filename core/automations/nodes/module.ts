import type { AutomationNode } from '../types';
import type { Param } from './checks';
import type { EditorField } from './editor';
import type { ActionFlow, ConditionFlow, TriggerFlow } from './flow';

export type { EdgeBranches, NodeGroup } from './flow';

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

/** What a backtest records of an action it stubbed (../backtestWouldDo.ts): what it would call, with what text. */
export interface WouldDoShape {
  method: unknown;
  target: unknown;
  template: unknown;
}

/** What every node type declares beside its flow (./flow.ts): its params rule and what the editor shows (the dashboard's React parts stay in web/). */
interface NodeParts {
  label: string;
  description: string;
  /** The params a step of this type starts with in the editor. */
  defaults: Record<string, unknown>;
  /** How the inspector edits the params, in order (./editor.ts). */
  fields: EditorField[];
  /** What the editor calls the branches (`when: true`, `when: false`) of a type whose edges branch. */
  branchLabels: readonly [string, string] | null;
  /** Exactly the params the type takes, each with its rule (`checkParams`). */
  params: Record<string, Param>;
}

export type NodeModule = (TriggerFlow | ConditionFlow) & NodeParts;

/** An action also declares its output (the run's and an MCP tool's output schema), what it does to the world and what a backtest records of it. */
export type ActionModule = ActionFlow &
  NodeParts & {
    output: ObjectSchema;
    /** Its contribution to an MCP tool's annotations; safe where the platform cannot know. */
    effect: (node: AutomationNode) => ToolAnnotations;
    /** How long a step may hold its run on purpose, in seconds (an MCP tool's wait budget, core/mcpTool.ts); none when absent. */
    holdsSeconds?: (params: Record<string, unknown>) => number;
    /** What it would call, with what, in a backtest (which never performs it). */
    wouldDo: (params: Record<string, unknown>) => WouldDoShape;
  };

export const objectOf = (properties: Record<string, unknown>, required: string[]): ObjectSchema => ({ type: 'object', properties, required });
export const TEXT = { type: 'string' };
