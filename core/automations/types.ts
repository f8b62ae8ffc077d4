/**
 * The workflow definition format (DESIGN.md "Workflows"): trigger, condition and action nodes joined by edges.
 * Every node's `params` are checked by `validateDefinition` (core/automations/definition.ts) before a definition is stored.
 */
export const TRIGGER_TYPES = ['trigger.manual', 'trigger.event', 'trigger.webhook', 'trigger.schedule'] as const;
export const ACTION_TYPES = [
  'action.http_request',
  'action.gateway',
  'action.set_state',
  'action.record_event',
  'action.upsert_entity',
  'action.delay',
  'action.send_email',
  'action.ai',
  'action.approval',
  'action.wait_for_event',
] as const;
export const NODE_TYPES = [...TRIGGER_TYPES, 'condition', ...ACTION_TYPES] as const;

export type TriggerType = (typeof TRIGGER_TYPES)[number];
export type ActionType = (typeof ACTION_TYPES)[number];
export type NodeType = (typeof NODE_TYPES)[number];

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
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
