import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { gatedPlayerOf, marketingStepOf } from '../../core/automations/nodes/marketing';
import { isAction, isRecord, type AutomationNode } from '../../core/automations/types';
import type { RunContext } from '../../core/automations/expressions';
import type { PatchCheck } from './patches';

/** The patch that puts the responsible-gambling gate before marketing steps (docs/workflows.md#versioning). */
export const MARKETING_GATE = 'marketing-gate';

/** The check is a short database read and one insert: a local activity, retried, recorded once per step (commands/compliance/gate.ts). */
const { checkMarketingGate } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 10, initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});

/** A step the gate stopped: its output, the run going on by its edges. */
export interface SuppressedOutput {
  suppressed: true;
  rule: string;
  playerId: string | null;
  stateHash: string;
}

export const isSuppressed = (output: unknown): output is SuppressedOutput => isRecord(output) && output.suppressed === true;

/**
 * Runs the gate before a marketing step (core/automations/nodes/marketing.ts says which): the suppressed output when
 * a rule applies, null when the step may act. Steps that are not marketing, and runs whose history predates the
 * gate, pass without a check.
 */
export async function gateMarketing(
  node: AutomationNode,
  params: Record<string, unknown>,
  scope: { operatorId: string; automationId: string; runId: string; context: RunContext; applies: PatchCheck },
): Promise<SuppressedOutput | null> {
  if (!isAction(node.type)) return null;
  const step = marketingStepOf(node.type, params);
  if (!step || !scope.applies(MARKETING_GATE)) return null;
  const verdict = await checkMarketingGate({
    operatorId: scope.operatorId,
    workflowId: scope.automationId,
    workflowVersion: scope.context.workflow.version,
    runId: scope.runId,
    nodeId: node.id,
    actionType: node.type,
    step,
    playerId: gatedPlayerOf(scope.context.trigger),
  });
  return verdict.rule === 'allowed' ? null : { suppressed: true, rule: verdict.rule, playerId: verdict.playerId, stateHash: verdict.stateHash };
}
