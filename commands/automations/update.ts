import { replaceWebhooks, webhooksOfAutomation } from '../../db/queries/automationWebhooks';
import { updateAutomation as writeUpdate, type AutomationRow } from '../../db/queries/automations';
import type { CommandDeps } from '../deps';
import { lockAutomation } from './lookup';
import { automationWrite, freeToolName, sealWebhooks, withToolNameRetry } from './persist';
import { validAutomationBody } from './validate';

export interface UpdateAutomationInput {
  operatorId: string;
  id: string;
  /** The whole new definition as sent, validated here (400 `VALIDATION_FAILED`). */
  body: unknown;
}

/**
 * Replaces a workflow's definition and bumps its `version`. Its triggers follow in the same transaction: schedules
 * are created, changed or removed (all of them when it is deactivated), webhooks of removed nodes stop answering,
 * a webhook node keeps its id and, without `secret`, its secret. The tool name changes only with the name.
 * 404 `WORKFLOW_NOT_FOUND` for an unknown or deleted workflow.
 */
export async function updateAutomation(deps: Pick<CommandDeps, 'db' | 'keyring' | 'syncSchedules'>, input: UpdateAutomationInput): Promise<AutomationRow> {
  const body = await validAutomationBody(input.body);
  const { operatorId } = input;
  return withToolNameRetry(() =>
    deps.db.transaction(async (trx) => {
      const existing = await lockAutomation(trx, operatorId, input.id);
      const { nodes, webhooks } = sealWebhooks(body.nodes, await webhooksOfAutomation(trx, operatorId, existing.id), deps.keyring, operatorId, existing.id);
      const toolName = body.name === existing.name ? existing.mcp_tool_name : await freeToolName(trx, operatorId, body.name, existing.id);
      const updated = await writeUpdate(trx, operatorId, existing.id, automationWrite(body, nodes, toolName), existing.active);
      await replaceWebhooks(trx, operatorId, existing.id, webhooks);
      await deps.syncSchedules({ operatorId, automationId: existing.id, previous: existing.nodes, next: body.active ? nodes : null });
      return updated;
    }),
  );
}
