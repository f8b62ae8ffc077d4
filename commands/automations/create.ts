import { prefixedId } from '../../core/ids';
import { replaceWebhooks } from '../../db/queries/automationWebhooks';
import { insertAutomation, type AutomationRow } from '../../db/queries/automations';
import type { CommandDeps } from '../deps';
import { automationWrite, freeToolName, sealWebhooks, withToolNameRetry } from './persist';
import { recordVersion } from './versions';
import { validAutomationBody } from './validate';

export interface CreateAutomationInput {
  operatorId: string;
  /** The definition as sent, validated here (400 `VALIDATION_FAILED`). */
  body: unknown;
  /** Who saves it, `member:<id>` or `key:<id>`, recorded with the version. */
  createdBy?: string;
}

/**
 * Stores a new workflow (version 1, kept in `workflow_versions`) with its webhooks and, when `active`, its schedules,
 * all in one transaction: a workflow never exists without its triggers, and a schedule that cannot be created leaves no workflow behind.
 */
export async function createAutomation(deps: Pick<CommandDeps, 'db' | 'keyring' | 'syncSchedules'>, input: CreateAutomationInput): Promise<AutomationRow> {
  const body = await validAutomationBody(input.body);
  const { operatorId } = input;
  const id = prefixedId('wf');
  return withToolNameRetry(() =>
    deps.db.transaction(async (trx) => {
      const { nodes, webhooks } = sealWebhooks(body.nodes, [], deps.keyring, operatorId, id);
      const write = automationWrite(body, nodes, await freeToolName(trx, operatorId, body.name), body.layout ?? {});
      const created = await insertAutomation(trx, operatorId, id, write);
      await recordVersion(trx, created, write, input.createdBy);
      await replaceWebhooks(trx, operatorId, id, webhooks);
      await deps.syncSchedules({ operatorId, automationId: id, previous: [], next: body.active ? nodes : null });
      return created;
    }),
  );
}
