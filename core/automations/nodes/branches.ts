import { isRecord, type NodeType } from '../types';

type BranchOf = (output: unknown) => boolean;

/**
 * The branch (`when`) a completed node's output takes, for node types whose edges branch (their module's `branches`
 * is not `none`), else null. Apart from the modules because workflow code reads it: it imports ../types only, while
 * a module's params rule brings JSONata and cron parsing with it.
 */
export const BRANCH_OF: Record<NodeType, BranchOf | null> = {
  'trigger.manual': null,
  'trigger.event': null,
  'trigger.webhook': null,
  'trigger.schedule': null,
  condition: (output) => isRecord(output) && output.result === true,
  'action.http_request': null,
  'action.gateway': null,
  'action.set_state': null,
  'action.record_event': null,
  'action.upsert_entity': null,
  'action.delay': null,
  'action.send_email': null,
  'action.ai': null,
  'action.approval': null,
  'action.wait_for_event': (output) => isRecord(output) && output.happened === 'event',
};

/** The branch a completed node took, or undefined for a node whose edges do not branch. */
export function branchTaken(type: NodeType, output: unknown): boolean | undefined {
  const branchOf = BRANCH_OF[type];
  return branchOf ? branchOf(output) : undefined;
}
