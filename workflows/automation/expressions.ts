import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { contextFor, evaluate, hasTemplates, isTruthy, renderParams, type RunContext } from '../../core/automations/expressions';
import { NOT_PLAIN, plainPathValue, renderPlainPaths } from '../../core/automations/plainPaths';
import type { AutomationNode } from '../../core/automations/types';
import type { ExpressionTask } from '../../sandbox/tasks';
import { NodeError } from './nodeError';
import type { PatchCheck } from './patches';

/**
 * The patch that moved tenant expressions out of the workflow isolate (docs/workflows.md#versioning). Runs that
 * evaluated an expression inline before it replay that part inline; everything they evaluate from here on, and all of
 * a new run, goes through the sandbox as a local activity whose outcome history records.
 */
export const EXPRESSIONS_IN_SANDBOX = 'expressions-in-sandbox';

/**
 * The patch that fills plain-path templates and conditions (`{{ trigger.playerId }}`) in the run itself instead of the
 * sandbox (core/automations/plainPaths.ts): runs recorded before it replay their sandbox local activities.
 */
export const PLAIN_PATHS_INLINE = 'plain-paths-inline';

/** Queueing in the sandbox included; a sandbox that cannot take the task is retried, a tenant's failure is an outcome. */
const { automationEvaluate } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});

async function inSandbox(operatorId: string, task: ExpressionTask): Promise<unknown> {
  const outcome = await automationEvaluate({ operatorId, task });
  if (!outcome.ok) throw new NodeError(outcome.code, outcome.message);
  return outcome.value;
}

/** Whether a condition node takes its `when: true` branch. */
export async function conditionHolds(node: AutomationNode, context: RunContext, operatorId: string, applies: PatchCheck): Promise<boolean> {
  if (!applies(EXPRESSIONS_IN_SANDBOX)) return isTruthy(await evaluate(String(node.params.expression), context));
  // Passed as it is: a long expression of a large definition may be a reference, which the activity resolves.
  const expression = node.params.expression as string;
  if (typeof expression === 'string' && applies(PLAIN_PATHS_INLINE)) {
    const value = plainPathValue(expression, context);
    if (value !== NOT_PLAIN) return isTruthy(value);
  }
  const visible = typeof expression === 'string' ? contextFor({ expression }, context) : context;
  return (await inSandbox(operatorId, { kind: 'condition', expression, field: 'params.expression', context: visible })) === true;
}

/** An action node's params with their `{{ }}` templates filled; params without templates need no evaluation. */
export async function renderedParams(node: AutomationNode, context: RunContext, operatorId: string, applies: PatchCheck): Promise<Record<string, unknown>> {
  if (!applies(EXPRESSIONS_IN_SANDBOX)) return (await renderParams(node.params, context)) as Record<string, unknown>;
  if (!hasTemplates(node.params)) return node.params;
  if (applies(PLAIN_PATHS_INLINE)) {
    const rendered = renderPlainPaths(node.params, context);
    if (rendered !== NOT_PLAIN) return rendered as Record<string, unknown>;
  }
  return (await inSandbox(operatorId, { kind: 'render', params: node.params, context: contextFor({ params: node.params }, context) })) as Record<
    string,
    unknown
  >;
}

/** Whether an event that arrived for an `action.wait_for_event` passes its filter: the run's context plus `event`. */
export async function eventFilterHolds(filter: string, event: unknown, context: RunContext, operatorId: string): Promise<boolean> {
  const visible = { ...contextFor({ expression: filter }, context), event };
  return (await inSandbox(operatorId, { kind: 'condition', expression: filter, field: 'params.filter', context: visible })) === true;
}
