import type { WebhookRow } from '../../db/queries/automationWebhooks';
import type { AutomationRow } from '../../db/queries/automations';

/**
 * An automation as the audit trail hashes it: its row and, from its webhooks, each id and sealed secret — a rotated
 * webhook secret changes no column of the row, and is a change all the same (named `webhooks`).
 */
export function automationAuditRecord(row: AutomationRow, webhooks: WebhookRow[]): object {
  const sealed = webhooks.map((webhook) => ({ id: webhook.id, node_id: webhook.node_id, secret_ciphertext: webhook.secret_ciphertext }));
  return { ...row, webhooks: sealed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
}
