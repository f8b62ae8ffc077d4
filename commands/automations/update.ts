import type { AutomationLayout } from '../../core/automations/definition';
import { triggerKeysOf } from '../../core/automations/triggerKeys';
import type { AutomationNode } from '../../core/automations/types';
import type { Actor, AuditAction } from '../../core/audit';
import { stableStringify } from '../../core/stableJson';
import { narrowTriggerKeys } from '../../db/queries/automationTriggerKeys';
import { replaceWebhooks, webhooksOfAutomation } from '../../db/queries/automationWebhooks';
import { updateAutomation as writeUpdate, type AutomationRow, type AutomationWrite } from '../../db/queries/automations';
import { recordAudit } from '../audit';
import type { CommandDeps } from '../deps';
import { automationAuditRecord } from './audit';
import { lockAutomation } from './lookup';
import { automationWrite, freeToolName, sealWebhooks, withToolNameRetry } from './persist';
import { withRestoredWebhooks, type RestoredWebhooks } from './restoreWebhooks';
import { validAutomationBody } from './validate';
import { recordVersion, versionDefinitionOf } from './versions';

export interface UpdateAutomationInput {
  operatorId: string;
  id: string;
  /** The whole new definition as sent, validated here (`VALIDATION_FAILED`). */
  body: unknown;
  /** Refuse HTTP steps whose literal URL names a private address (the API, while `GATEWAY_ALLOW_PRIVATE_NETWORKS` is off). */
  refusePrivateUrls?: boolean;
  /** Who saves it: recorded with the version it makes and as the audit event's actor. */
  actor: Actor;
  /** How the audit trail names the change: a rollback is one, not an update. Left out: `automation.updated`. */
  audit?: { action: AuditAction; note: (row: AutomationRow) => string };
  /** A rollback's webhook steps (restoreWebhooks.ts): one removed since comes back under its former id. */
  restoredWebhooks?: RestoredWebhooks;
}

/** The stored places of the steps that are still there, for an update that sends no `layout`. */
function keptLayout(layout: AutomationLayout, nodes: AutomationNode[]): AutomationLayout {
  const ids = new Set(nodes.map((node) => node.id));
  return Object.fromEntries(Object.entries(layout).filter(([id]) => ids.has(id)));
}

/**
 * Whether anything a run or a caller sees changed — every field a version stores (`versionDefinitionOf`), so what
 * bumps the version and what the version keeps are the same fields: a save that only moved steps keeps the version.
 */
function definitionChanged(existing: AutomationRow, write: AutomationWrite): boolean {
  const next: Record<string, unknown> = versionDefinitionOf(write);
  const stored = existing as unknown as Record<string, unknown>;
  const fields = Object.keys(next);
  const of = (row: Record<string, unknown>) => stableStringify(fields.map((field) => row[field] ?? null));
  return of(stored) !== of(next);
}

/**
 * Replaces a workflow's definition and bumps its `version`, stored in `automation_versions` in the same transaction
 * (not for a save that only moved steps: `layout`). Its triggers follow in that transaction too: schedules
 * are created, changed or removed (all of them when it is deactivated), webhooks of removed nodes stop answering,
 * a webhook node keeps its id and, without `secret`, its secret. The tool name changes only with the name.
 * `WORKFLOW_NOT_FOUND` for an unknown or deleted workflow.
 */
export async function updateAutomation(deps: Pick<CommandDeps, 'db' | 'keyring' | 'syncSchedules'>, input: UpdateAutomationInput): Promise<AutomationRow> {
  const body = await validAutomationBody(input.body, { refusePrivateUrls: input.refusePrivateUrls });
  const { operatorId } = input;
  return withToolNameRetry(() =>
    deps.db.transaction(async (trx) => {
      const existing = await lockAutomation(trx, operatorId, input.id);
      const stored = await webhooksOfAutomation(trx, operatorId, existing.id);
      const previous = input.restoredWebhooks
        ? withRestoredWebhooks(stored, body.nodes, input.restoredWebhooks, { operatorId, automationId: existing.id })
        : stored;
      const { nodes, webhooks } = sealWebhooks(body.nodes, previous, deps.keyring, operatorId, existing.id);
      const toolName = body.name === existing.name ? existing.mcp_tool_name : await freeToolName(trx, operatorId, body.name, existing.id);
      const write = automationWrite(body, nodes, toolName, body.layout ?? keptLayout(existing.layout, nodes));
      const bump = definitionChanged(existing, write);
      const updated = await writeUpdate(trx, operatorId, existing.id, write, { wasActive: existing.active, bump });
      await narrowTriggerKeys(trx, operatorId, existing.id, triggerKeysOf(write.nodes, write.run_control));
      if (bump) await recordVersion(trx, updated, write, input.actor);
      await replaceWebhooks(trx, operatorId, existing.id, webhooks);
      await recordAudit(trx, {
        operatorId,
        actor: input.actor,
        action: input.audit?.action ?? 'automation.updated',
        target: { type: 'automation', id: existing.id },
        before: automationAuditRecord(existing, stored),
        after: automationAuditRecord(updated, webhooks),
        note: input.audit ? input.audit.note(updated) : `version ${updated.version}`,
      });
      await deps.syncSchedules({ operatorId, automationId: existing.id, previous: existing.nodes, next: body.active ? nodes : null });
      return updated;
    }),
  );
}
