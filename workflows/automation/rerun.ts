import type { GraphIndex } from '../../core/automations/graph';
import { isAction, type NodeResult } from '../../core/automations/types';

/** The patch under which a rerun's interpreter takes the original's kept results (docs/workflows.md#versioning). */
export const RERUN_REUSES_RESULTS = 'rerun-reuses-results';

/**
 * Puts a rerun's kept results (core/automations/rerun.ts `rerunPlan`, read by the begin activity) where the interpreter
 * looks for finished nodes: it then neither runs nor counts them, later steps read their outputs as `nodes.<id>`, and
 * a kept condition's branch steers its edges as it did in the original. Returns the run's output so far: the last kept
 * action's output in run order, else `lastOutput`.
 */
export function reuseResults(
  reused: NodeResult[],
  run: { order: string[]; graph: GraphIndex; results: Map<string, NodeResult>; branches: Map<string, boolean>; nodes: Record<string, unknown> },
  lastOutput: unknown,
): unknown {
  const byId = new Map(reused.map((node) => [node.id, node]));
  let output = lastOutput;
  for (const id of run.order) {
    const node = byId.get(id);
    const type = run.graph.node(id)?.type;
    if (!node || !type) continue;
    run.results.set(id, node);
    run.nodes[id] = node.output;
    if (type === 'condition') {
      const result = node.branch ?? (node.output as { result?: unknown } | undefined)?.result;
      run.branches.set(id, result === true);
    } else if (isAction(type)) {
      output = node.output;
    }
  }
  return output;
}
