import type { Keyring } from '../crypto';
import { openRunParts, SEALED_MESSAGE } from '../runSeal';
import { withSuppression } from './suppression';
import type { AutomationRunRecord, NodeResult, RunError, RunSource, RunStatus } from './types';

/**
 * The columns of a stored run (`automation_runs`) that its API record is built from; db/queries/automationRuns.ts's
 * `RunRow` has them all. A list reads only these, with `input` and `output` left out.
 */
export interface StoredRun {
  id: string;
  operator_id: string;
  automation_id: string;
  automation_version: number;
  source: RunSource;
  status: RunStatus;
  temporal_workflow_id: string;
  input: unknown;
  output: unknown;
  nodes: NodeResult[];
  error: RunError | null;
  started_at: Date;
  completed_at: Date | null;
  duration_ms: number | null;
  /** A rerun's links (db/migrations/20261129110000_add_workflow_runs_rerun.ts); absent on rows read without them. */
  rerun_of?: string | null;
  rerun_from_node_id?: string | null;
  replay_id?: string | null;
}

/** The message a redacted run's error carries instead of its own (erasure, docs/security.md). */
export const REDACTED_MESSAGE = 'Redacted: the entity this run was about has been erased';

function recordOf(row: StoredRun, parts: { input: unknown; output: unknown; nodes: NodeResult[]; error: RunError | null }): AutomationRunRecord {
  return {
    id: row.id,
    workflowId: row.automation_id,
    workflowVersion: row.automation_version,
    source: row.source,
    status: row.status,
    temporalWorkflowId: row.temporal_workflow_id,
    input: parts.input ?? null,
    output: parts.output ?? null,
    nodes: parts.nodes.map(withSuppression),
    ...(parts.error ? { error: parts.error } : {}),
    startedAt: row.started_at.toISOString(),
    completedAt: row.completed_at ? row.completed_at.toISOString() : null,
    durationMs: row.duration_ms,
    rerunOf: row.rerun_of ?? null,
    rerunFromNodeId: row.rerun_from_node_id ?? null,
    replayId: row.replay_id ?? null,
  };
}

/**
 * The API shape of one run (DESIGN.md "Run"), its sealed parts opened: only for a caller reading that run. A run
 * erasure redacted reads as stored, `{ _redacted: true }` and `REDACTED_MESSAGE`.
 */
export async function toRunRecord(row: StoredRun, keyring: Keyring): Promise<AutomationRunRecord> {
  return recordOf(row, await openRunParts(keyring, row.operator_id, row.id, row));
}

/**
 * A run as a list shows it, nothing opened (core/runSeal.ts): no `input` or `output`, each node's id, status and
 * duration, the error's code and node with a pointer to the run instead of its message.
 */
export function toRunSummary(row: StoredRun): AutomationRunRecord {
  const {
    input: _input,
    output: _output,
    ...summary
  } = recordOf(row, {
    input: null,
    output: null,
    nodes: row.nodes.map((node) => ({
      id: node.id,
      status: node.status,
      durationMs: node.durationMs,
      ...(node.reused ? { reused: true as const } : {}),
      ...(node.suppressed ? { suppressed: { rule: node.suppressed.rule } } : {}),
    })),
    error: row.error ? { code: row.error.code, message: SEALED_MESSAGE, ...(row.error.nodeId !== undefined ? { nodeId: row.error.nodeId } : {}) } : null,
  });
  return summary as AutomationRunRecord;
}
