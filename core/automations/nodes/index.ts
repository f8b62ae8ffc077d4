import { isAction, type ActionType, type NodeType } from '../types';
import { ai } from './ai';
import { approval } from './approval';
import { expression } from './checks';
import { condition } from './condition';
import { delay } from './delay';
import { gateway } from './gateway';
import { httpRequest } from './httpRequest';
import type { ActionModule, NodeModule, ObjectSchema } from './module';
import { note } from './note';
import { recordEvent } from './recordEvent';
import { sendEmail } from './sendEmail';
import { setState } from './setState';
import { triggerEvent } from './triggerEvent';
import { triggerManual } from './triggerManual';
import { triggerSchedule } from './triggerSchedule';
import { triggerWebhook } from './triggerWebhook';
import { upsertEntity } from './upsertEntity';
import { waitForEvent } from './waitForEvent';

/**
 * Every node type's module (its folder's index.ts), keyed by type: a type added to ./flows.ts without a module here
 * does not compile, and neither does the workflow's table of runners (workflows/automation/actions.ts) for an action
 * that does not run inline. docs/workflows.md, "Adding a node type".
 */
export const NODE_MODULES: { [T in NodeType]: T extends ActionType ? ActionModule : NodeModule } = {
  'trigger.manual': triggerManual,
  'trigger.event': triggerEvent,
  'trigger.webhook': triggerWebhook,
  'trigger.schedule': triggerSchedule,
  condition,
  'action.http_request': httpRequest,
  'action.gateway': gateway,
  'action.set_state': setState,
  'action.record_event': recordEvent,
  'action.upsert_entity': upsertEntity,
  'action.delay': delay,
  'action.send_email': sendEmail,
  'action.ai': ai,
  'action.approval': approval,
  'action.wait_for_event': waitForEvent,
  'action.note': note,
};

export const actionModule = (type: ActionType): ActionModule => NODE_MODULES[type];

/** Seconds a node may hold its run on purpose (its module's `holdsSeconds`: a delay, an approval, a wait for an event). */
export function heldSecondsOf(node: { type: string; params: Record<string, unknown> }): number {
  return isAction(node.type) ? (actionModule(node.type).holdsSeconds?.(node.params) ?? 0) : 0;
}

/**
 * Whether a run of these nodes may stay open on purpose: such runs start on the waiting task queue
 * (temporal/taskQueues.ts), so thousands of them held open never weigh on the runs that finish at once.
 */
export const mayHoldRun = (nodes: ReadonlyArray<{ type: string; params: Record<string, unknown> }>): boolean => nodes.some((node) => heldSecondsOf(node) > 0);

/** The output schema of each action, by type (MCP tools' `outputSchema`, core/automations/runOutput.ts). */
export const outputSchemaOf = (type: ActionType): ObjectSchema => actionModule(type).output;

/** Whether a param is one whole JSONata expression (a condition, a filter) rather than text with `{{ }}` templates. */
export function isWholeExpression(type: NodeType, param: string): boolean {
  const params: Record<string, { check: unknown }> = NODE_MODULES[type].params;
  return Object.hasOwn(params, param) && params[param]!.check === expression;
}
