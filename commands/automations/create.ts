import type { Actor } from '../../core/audit';
import { triggerKeysOf } from '../../core/automations/triggerKeys';
import { prefixedId } from '../../core/ids';
import { narrowTriggerKeys } from '../../db/queries/automationTriggerKeys';
import { replaceWebhooks } from '../../db/queries/automationWebhooks';
import { insertAutomation, type AutomationRow } from '../../db/queries/automations';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { automationAuditRecord } from './audit';
import { automationWrite, freeToolName, sealWebhooks, withToolNameRetry } from './persist';
import { recordVersion } from './versions';
import { validAutomationBody } from './validate';

export interface CreateAutomationInput {
  operatorId: string;
  /** The definition as sent, validated here (`VALIDATION_FAILED`). */
  body: unknown;
  /** Refuse HTTP steps whose literal URL names a private address (the API, while `GATEWAY_ALLOW_PRIVATE_NETWORKS` is off). */
  refusePrivateUrls?: boolean;
  /** Who saves it: recorded with the version and as the audit event's actor. */
  actor: Actor;
}

/**
 * Stores a new workflow (version 1, kept in `automation_versions`) with its webhooks and, when `active`, its schedules,
 * all in one transaction: a workflow never exists without its triggers, and a schedule that cannot be created leaves no workflow behind.
 */
export async function createAutomation(deps: Pick<CommandDeps, 'db' | 'keyring' | 'syncSchedules'>, input: CreateAutomationInput): Promise<AutomationRow> {
  const body = await validAutomationBody(input.body, { refusePrivateUrls: input.refusePrivateUrls });
  const { operatorId } = input;
  const id = prefixedId('wf');
  return withToolNameRetry(() =>
    deps.db.transaction(async (trx) => {
      const { nodes, webhooks } = sealWebhooks(body.nodes, [], deps.keyring, operatorId, id);
      const write = automationWrite(body, nodes, await freeToolName(trx, operatorId, body.name), body.layout ?? {});
      const created = await insertAutomation(trx, operatorId, id, write);
      await narrowTriggerKeys(trx, operatorId, id, triggerKeysOf(write.nodes, write.run_control));
      await recordVersion(trx, created, write, input.actor);
      await replaceWebhooks(trx, operatorId, id, webhooks);
      await recordAudit(trx, {
        operatorId,
        actor: input.actor,
        action: 'automation.created',
        target: { type: 'automation', id },
        before: null,
        after: automationAuditRecord(created, webhooks),
        note: 'version 1',
      });
      await deps.syncSchedules({ operatorId, automationId: id, previous: [], next: body.active ? nodes : null });
      return created;
    }),
  );
}
