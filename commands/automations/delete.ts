import type { Actor } from '../../core/audit';
import { deleteWebhooksOfAutomation, webhooksOfAutomation } from '../../db/queries/automationWebhooks';
import { softDeleteAutomation } from '../../db/queries/automations';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { automationAuditRecord } from './audit';
import { lockAutomation } from './lookup';

export interface DeleteAutomationInput {
  operatorId: string;
  id: string;
  /** Who deletes it, as the audit event's actor. */
  actor: Actor;
}

/**
 * Soft-deletes a workflow: its schedules and webhooks are removed in the same transaction, so nothing starts it
 * again, while its runs stay readable. `WORKFLOW_NOT_FOUND` for an unknown or already deleted workflow.
 */
export async function deleteAutomation(deps: Pick<CommandDeps, 'db' | 'syncSchedules'>, input: DeleteAutomationInput): Promise<void> {
  const { operatorId } = input;
  await deps.db.transaction(async (trx) => {
    const existing = await lockAutomation(trx, operatorId, input.id);
    const webhooks = await webhooksOfAutomation(trx, operatorId, existing.id);
    await softDeleteAutomation(trx, operatorId, existing.id);
    await deleteWebhooksOfAutomation(trx, operatorId, existing.id);
    await deps.syncSchedules({ operatorId, automationId: existing.id, previous: existing.nodes, next: null });
    await recordAudit(trx, {
      operatorId,
      actor: input.actor,
      action: 'automation.deleted',
      target: { type: 'automation', id: existing.id },
      before: automationAuditRecord(existing, webhooks),
      after: null,
    });
  });
}
