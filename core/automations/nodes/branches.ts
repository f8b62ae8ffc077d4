import type { NodeType } from '../types';
import type { BranchOf } from './flow';
import { NODE_FLOWS } from './flows';

/**
 * The branch (`when`) a completed node's output takes, for node types whose edges branch (their `branches` is not
 * `none`), else null: each type's `<type>/flow.ts` declares it, as workflow code reads it.
 */
export const BRANCH_OF: Record<NodeType, BranchOf | null> = Object.fromEntries(
  Object.entries(NODE_FLOWS).map(([type, flow]) => [type, flow.branchOf]),
) as Record<NodeType, BranchOf | null>;

/** The branch a completed node took, or undefined for a node whose edges do not branch. */
export function branchTaken(type: NodeType, output: unknown): boolean | undefined {
  const branchOf = BRANCH_OF[type];
  return branchOf ? branchOf(output) : undefined;
}
