import type { AutomationNode } from '../../core/automations/types';
import type { WebhookRow } from '../../db/queries/automationWebhooks';
import { CommandError } from '../errors';

/**
 * The webhooks a restored version had, by node id: its `webhookId` and whether it was signed. A rollback hands them
 * to `updateAutomation` so a webhook step removed since comes back under the URL its sender still calls.
 */
export type RestoredWebhooks = Record<string, { webhookId: string; hadSecret: boolean }>;

export function restoredWebhooksOf(nodes: AutomationNode[]): RestoredWebhooks {
  const restored: RestoredWebhooks = {};
  for (const node of nodes) {
    if (node.type === 'trigger.webhook' && typeof node.params.webhookId === 'string') {
      restored[node.id] = { webhookId: node.params.webhookId, hadSecret: node.params.hasSecret === true };
    }
  }
  return restored;
}

/**
 * `existing` plus, for each webhook step of `nodes` that has no webhook now, the one its restored version had: its
 * id (never given to another step, so free once its step is gone) and no secret. Secrets are never versioned, so a
 * restored step that was signed cannot come back as it was: `VERSION_NOT_RESTORABLE` naming the step's field,
 * rather than a webhook that would take unsigned calls.
 */
export function withRestoredWebhooks(
  existing: WebhookRow[],
  nodes: AutomationNode[],
  restored: RestoredWebhooks,
  owner: { operatorId: string; automationId: string },
): WebhookRow[] {
  const present = new Set(existing.map((row) => row.node_id));
  const missing = nodes
    .map((node, index) => ({ node, index }))
    .filter(({ node }) => node.type === 'trigger.webhook' && !present.has(node.id) && restored[node.id]);
  const signed = missing.find(({ node }) => restored[node.id]!.hadSecret);
  if (signed) {
    const field = `nodes[${signed.index}].params.secret`;
    throw new CommandError(
      'VERSION_NOT_RESTORABLE',
      `The webhook step "${signed.node.id}" was signed, and its secret was deleted when the step was removed: add the step back with a new secret (PUT /workflows/:id)`,
      [{ field, message: 'the signing secret of this webhook no longer exists' }],
    );
  }
  const revived: WebhookRow[] = missing.map(({ node }) => ({
    id: restored[node.id]!.webhookId,
    operator_id: owner.operatorId,
    automation_id: owner.automationId,
    node_id: node.id,
    provider_name: null,
    secret_ciphertext: null,
  }));
  return [...existing, ...revived];
}
