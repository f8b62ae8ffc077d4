import type { Knex } from 'knex';
import { internalEvent } from '../core/events';
import type { Db } from '../db/knex';
import { appendOutboxEvents } from '../db/queries/outbox';
import { claimDelivery, recordDeliveryRun } from '../db/queries/webhookDeliveries';
import type { CommandDeps } from './deps';

export interface WebhookDeliveryInput {
  operatorId: string;
  webhookId: string;
  /** The sender's `webhook-id`, already authenticated; undefined when it sent none. */
  deliveryId: string | undefined;
  /** The trigger's provider: its deliveries also emit `provider.webhook.<name>` with the body as data. */
  providerName: string | null;
  body: unknown;
  /**
   * Starts the workflow's run and answers its id. Handed in by the caller (temporal/automationRuns.ts), since
   * commands sit below temporal/ in the layers.
   */
  start: () => Promise<string>;
}

export interface WebhookDeliveryResult {
  runId: string;
  /** The delivery id was seen before: `runId` is the first delivery's run and nothing started. */
  repeated: boolean;
}

async function emitAndStart(runner: Db | Knex.Transaction, input: WebhookDeliveryInput): Promise<string> {
  if (input.providerName) {
    await appendOutboxEvents(runner, [internalEvent(input.operatorId, `provider.webhook.${input.providerName}`, null, input.body)]);
  }
  return input.start();
}

/**
 * Starts a webhook delivery's run at most once per delivery id: the id is claimed, the provider event written, the
 * run started and recorded in one transaction, so a repeat (a sender's retry, a replay) waits for the first and
 * answers its run, and a start that fails leaves the id free for the sender's retry. Without an id, every delivery
 * starts a run.
 */
export async function startWebhookRun(deps: Pick<CommandDeps, 'db'>, input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { deliveryId } = input;
  if (deliveryId === undefined) return { runId: await emitAndStart(deps.db, input), repeated: false };
  const delivery = { operatorId: input.operatorId, webhookId: input.webhookId, deliveryId };
  return deps.db.transaction(async (trx) => {
    const claim = await claimDelivery(trx, delivery);
    if (claim.kind === 'seen') return { runId: claim.runId, repeated: true };
    const runId = await emitAndStart(trx, input);
    await recordDeliveryRun(trx, delivery, runId);
    return { runId, repeated: false };
  });
}
