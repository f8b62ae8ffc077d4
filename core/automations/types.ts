import { NODE_FLOWS } from './nodes/flows';

/**
 * The workflow definition format (DESIGN.md "Workflows"): trigger, condition and action nodes joined by edges.
 * Every node's `params` are checked by `validateDefinition` (core/automations/definition.ts) before a definition is stored.
 * The node types are the keys of ./nodes/flows.ts, one folder each under ./nodes/.
 */
export type NodeType = keyof typeof NODE_FLOWS;
type TypeOfGroup<G> = { [T in NodeType]: (typeof NODE_FLOWS)[T]['group'] extends G ? T : never }[NodeType];
export type TriggerType = TypeOfGroup<'trigger'>;
export type ActionType = TypeOfGroup<'action'>;
/** An action that runs inside the workflow from its params alone (./nodes/flow.ts `InlineRun`): no runner of its own. */
export type InlineActionType = { [T in ActionType]: (typeof NODE_FLOWS)[T]['inline'] extends null ? never : T }[ActionType];

const ofGroup = <T extends NodeType>(group: string) => (Object.keys(NODE_FLOWS) as NodeType[]).filter((type) => NODE_FLOWS[type].group === group) as T[];
export const NODE_TYPES = Object.keys(NODE_FLOWS) as [NodeType, ...NodeType[]];
export const TRIGGER_TYPES: readonly TriggerType[] = ofGroup<TriggerType>('trigger');
export const ACTION_TYPES: readonly ActionType[] = ofGroup<ActionType>('action');

export interface AutomationNode {
  id: string;
  type: NodeType;
  params: Record<string, unknown>;
}

export interface AutomationEdge {
  from: string;
  to: string;
  /** The branch the edge belongs to: on every edge leaving a `condition`, optional on one leaving an `action.wait_for_event`. */
  when?: boolean;
}

export interface AutomationDefinition {
  nodes: AutomationNode[];
  edges: AutomationEdge[];
}

/** Where a run came from (DESIGN.md "Run"). */
export const RUN_SOURCES = ['manual', 'webhook', 'schedule', 'event', 'mcp'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];

/** `cancelled`: the node was running when its run was cancelled (an `action.delay` cut short). */
export type NodeStatus = 'completed' | 'failed' | 'skipped' | 'cancelled';

export interface RunError {
  code: string;
  message: string;
  nodeId?: string;
}

export interface NodeResult {
  id: string;
  status: NodeStatus;
  /** What the node was given: an action's rendered params, a condition's expression; sealed like `output`. */
  input?: unknown;
  output?: unknown;
  error?: RunError;
  /** Only on a node whose edges branch (a condition, an `action.wait_for_event`) that ran: the branch it took. Kept in the clear, so the runs explorer can filter on it. */
  branch?: boolean;
  durationMs: number;
  /** On a rerun: the original run's result, kept and not run again (core/automations/rerun.ts). */
  reused?: true;
  /** A marketing step the gate suppressed (status `completed`): the rule, in the clear (core/automations/suppression.ts). */
  suppressed?: { rule: string };
}

/** `cancelled`: stopped on request (an MCP client's `notifications/cancelled`); nodes not started by then never run. */
export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/** A run as the API returns it (DESIGN.md "Run"). */
export interface AutomationRunRecord {
  id: string;
  workflowId: string;
  workflowVersion: number;
  source: RunSource;
  status: RunStatus;
  /** The run's Temporal workflow id (links to the Temporal Web UI); absent only on a run not recorded yet. */
  temporalWorkflowId?: string;
  input: unknown;
  output: unknown;
  nodes: NodeResult[];
  error?: RunError;
  startedAt: string;
  completedAt: string | null;
  durationMs: number | null;
  /** The run this one reruns (`POST /runs/:runId/rerun` or a replay), the step it was rerun from, and the replay job that started it. */
  rerunOf: string | null;
  rerunFromNodeId: string | null;
  replayId: string | null;
}

export const isTrigger = (type: string): type is TriggerType => (TRIGGER_TYPES as readonly string[]).includes(type);
export const isAction = (type: string): type is ActionType => (ACTION_TYPES as readonly string[]).includes(type);
export { isObject as isRecord } from './nodes/flow';
