import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export interface WebhookRow {
  id: string;
  operator_id: string;
  automation_id: string;
  node_id: string;
  provider_name: string | null;
  secret_ciphertext: string | null;
}

export async function webhooksOfAutomation(db: Runner, operatorId: string, automationId: string): Promise<WebhookRow[]> {
  return db<WebhookRow>('automation_webhooks').where({ operator_id: operatorId, automation_id: automationId }).select('*');
}

/** Makes the workflow's webhook rows exactly `rows` (removed nodes lose their webhook, so their URL answers 404). */
export async function replaceWebhooks(trx: Runner, operatorId: string, automationId: string, rows: WebhookRow[]): Promise<void> {
  await trx('automation_webhooks')
    .where({ operator_id: operatorId, automation_id: automationId })
    .whereNotIn(
      'id',
      rows.map((row) => row.id),
    )
    .delete();
  if (rows.length === 0) return;
  await trx('automation_webhooks').insert(rows).onConflict('id').merge(['node_id', 'provider_name', 'secret_ciphertext']);
}

export async function deleteWebhooksOfAutomation(trx: Runner, operatorId: string, automationId: string): Promise<void> {
  await trx('automation_webhooks').where({ operator_id: operatorId, automation_id: automationId }).delete();
}

/**
 * The receiver's lookup: the webhook and its workflow, only while the workflow is active and not
 * deleted. The webhook id is the public capability, so this is the one query without an operator id —
 * the operator comes from the row.
 */
export async function findActiveWebhook(db: Runner, webhookId: string): Promise<(WebhookRow & { automation_name: string }) | undefined> {
  return db('automation_webhooks as h')
    .join('automations as w', function joinAutomation() {
      this.on('w.id', '=', 'h.automation_id').andOn('w.operator_id', '=', 'h.operator_id');
    })
    .where('h.id', webhookId)
    .andWhere('w.active', true)
    .whereNull('w.deleted_at')
    .first('h.*', 'w.name as automation_name');
}
