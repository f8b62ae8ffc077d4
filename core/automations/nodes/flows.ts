import { flow as ai } from './ai/flow';
import { flow as approval } from './approval/flow';
import { flow as condition } from './condition/flow';
import { flow as delay } from './delay/flow';
import type { NodeFlow } from './flow';
import { flow as gateway } from './gateway/flow';
import { flow as httpRequest } from './httpRequest/flow';
import { flow as note } from './note/flow';
import { flow as recordEvent } from './recordEvent/flow';
import { flow as sendEmail } from './sendEmail/flow';
import { flow as setState } from './setState/flow';
import { flow as triggerEvent } from './triggerEvent/flow';
import { flow as triggerManual } from './triggerManual/flow';
import { flow as triggerSchedule } from './triggerSchedule/flow';
import { flow as triggerWebhook } from './triggerWebhook/flow';
import { flow as upsertEntity } from './upsertEntity/flow';
import { flow as waitForEvent } from './waitForEvent/flow';

/**
 * The node types, in the order the API's enum and the dashboard's palette list them, each with what workflow code
 * reads of it (./flow.ts). This table is where a type comes into being: `NodeType`, `TriggerType` and `ActionType`
 * (../types.ts) are its keys, and every other table keyed by type (./index.ts, workflows/automation/actions.ts) stops
 * compiling until it names the new one. docs/workflows.md, "Adding a node type".
 */
export const NODE_FLOWS = {
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
} as const satisfies Record<string, NodeFlow>;
