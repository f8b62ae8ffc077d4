import type { Context } from 'koa';
import { webhookSecretContext } from '../../commands/automations/persist';
import { startWebhookRun } from '../../commands/webhookDelivery';
import { findActiveWebhook } from '../../db/queries/automationWebhooks';
import { startAutomationRun } from '../../temporal/automationRuns';
import { AppError } from '../errors';
import { parseJsonText } from '../middleware/jsonBody';
import { authenticateDelivery } from './delivery';
import { webhooks } from './area';

function parsedBody(ctx: Context, bytes: Buffer | undefined, limitBytes: number): unknown {
  const raw = bytes ?? Buffer.alloc(0);
  if (raw.length > limitBytes) throw new AppError(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limitBytes} bytes`);
  if (raw.length === 0) throw new AppError(400, 'INVALID_JSON', 'Request body must be a JSON document');
  return parseJsonText(raw.toString('utf8'), ctx.path);
}

/**
 * `POST /webhook-receiver/:webhookId` (spec 4.7): unknown or inactive webhook → 404, bad or missing
 * signature when the trigger has a secret → 401 (`delivery.ts` says which headers), malformed `webhook-id` → 400,
 * the organisation past its runs:start limit → 429,
 * body not JSON → 400 (nested too deeply or holding a number out of range: 400 `VALIDATION_FAILED` naming the field), over the
 * limit → 413; otherwise the run starts in Temporal (source `webhook`) and the answer
 * is 202 at once. A delivery id seen before for this webhook answers 202 with the first delivery's run and starts
 * nothing. A trigger that names a provider also emits `provider.webhook.<name>` with the body as data. It reads the
 * request raw: the signature covers the body's exact bytes.
 */
export const receiveHandler = webhooks.handler({ raw: ['bytes', 'params'] }, async ({ deps, ctx, raw }) => {
  const webhookId = String(raw.params.webhookId);
  const webhook = webhookId.startsWith('whk_') ? await findActiveWebhook(deps.db, webhookId) : undefined;
  if (!webhook) throw new AppError(404, 'WEBHOOK_NOT_FOUND', 'Webhook not found');
  const secret = webhook.secret_ciphertext ? deps.keyring.decrypt(webhook.secret_ciphertext, webhookSecretContext(webhook.operator_id, webhook.id)) : null;
  const deliveryId = authenticateDelivery(ctx, raw.bytes, secret);
  // Counted once the delivery is authentic: an unsigned guess spends nothing of the organisation's run budget.
  const decision = await deps.rateLimits.consume('runs:start', webhook.operator_id);
  if (!decision.allowed) {
    throw new AppError(429, 'RATE_LIMITED', `Rate limit exceeded for runs:start; retry after ${decision.retryAfterSeconds} s`, {
      headers: { 'Retry-After': String(decision.retryAfterSeconds) },
    });
  }
  const body = parsedBody(ctx, raw.bytes, deps.config.WEBHOOK_BODY_LIMIT_BYTES);
  const { runId, repeated } = await startWebhookRun(deps, {
    operatorId: webhook.operator_id,
    webhookId: webhook.id,
    deliveryId,
    providerName: webhook.provider_name,
    body,
    start: async () => {
      const started = await startAutomationRun(deps.temporal, {
        operatorId: webhook.operator_id,
        automationId: webhook.automation_id,
        source: 'webhook',
        input: body,
        triggerNodeId: webhook.node_id,
      });
      return started.runId;
    },
  });
  if (repeated) ctx.state.log.info({ operatorId: webhook.operator_id, webhookId: webhook.id, runId }, 'repeated webhook delivery: no new run');
  ctx.status = 202;
  ctx.body = { success: true, data: { accepted: true, runId } };
});
