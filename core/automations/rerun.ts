import { GraphIndex, reachableFrom } from './graph';
import { isAction, isTrigger, type AutomationDefinition, type NodeResult } from './types';

/**
 * Rerun planning (docs/workflows.md "Rerun and replay"): which recorded results of the original run a rerun from a
 * chosen step keeps. Pure, so the API's validation and the begin activity apply one rule; imports ./graph and ./types only.
 */

/** Which definition a rerun executes: the one its original ran (`run`) or the automation's current one. */
export const RERUN_VERSIONS = ['run', 'current'] as const;
export type RerunVersion = (typeof RERUN_VERSIONS)[number];

/**
 * Why `fromNodeId` cannot be rerun from in this definition, or null when it can: it must name a step that is not a
 * trigger (a trigger is the payload itself, which a rerun always keeps).
 *
 * @example rerunStepProblem(def, 'start', 3) // 'start is a trigger of version 3: choose a step after it'
 */
export function rerunStepProblem(def: AutomationDefinition, fromNodeId: string, version: number): string | null {
  const node = new GraphIndex(def).node(fromNodeId);
  if (!node) return `${fromNodeId} is not a step of version ${version}`;
  if (isTrigger(node.type)) return `${fromNodeId} is a trigger of version ${version}: choose a step after it`;
  return null;
}

export interface RerunPlan {
  /** The original's results kept as they were, each marked `reused`; the interpreter neither runs nor counts them. */
  reused: NodeResult[];
  /** The quota a rerun reserves: the worst case of the actions it may still run (reused ones excluded). */
  budget: { actions: number; aiActions: number };
}

/**
 * What a rerun from `fromNodeId` keeps of `original` (the original run's node results, outputs opened): every node
 * that is neither `fromNodeId` nor reachable from it and that the original completed keeps its output (a condition its
 * branch); nothing else is kept. A node the original skipped, failed or cancelled, or that its version lacked, is decided
 * anew by the interpreter's usual rule: it runs when an edge from a completed node (on the condition's recorded branch)
 * reaches it, and is skipped otherwise — so a step skipped only because the original failed earlier runs now, and a step
 * on the branch a reused condition did not take stays skipped.
 *
 * @example rerunPlan(def, 'start', 'notify', original).reused.map((node) => node.id) // ['flag']
 */
export function rerunPlan(def: AutomationDefinition, triggerId: string, fromNodeId: string, original: NodeResult[]): RerunPlan {
  const graph = new GraphIndex(def);
  const again = reachableFrom(def, fromNodeId);
  const reused = original
    .filter((node) => node.status === 'completed' && !again.has(node.id) && graph.node(node.id) && !isTrigger(graph.node(node.id)!.type))
    .map(({ error: _error, durationMs: _durationMs, reused: _reused, ...kept }): NodeResult => ({ ...kept, durationMs: 0, reused: true }));
  const kept = new Set(reused.map((node) => node.id));
  const reachable = reachableFrom(def, triggerId);
  const remaining = def.nodes.filter((node) => reachable.has(node.id) && !kept.has(node.id));
  return {
    reused,
    budget: {
      actions: remaining.filter((node) => isAction(node.type)).length,
      aiActions: remaining.filter((node) => node.type === 'action.ai').length,
    },
  };
}
