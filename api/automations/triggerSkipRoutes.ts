import { z } from 'zod';
import { listSkippedTriggers, readDispatchLag, type SkippedTrigger } from '../../commands/automations/triggerSkips';
import { TRIGGER_SKIP_REASONS } from '../../db/queries/triggerSkips';
import type { AppDeps } from '../deps';
import type { Principal } from '../middleware/authenticate';
import type { Area } from '../endpoint';
import { automations } from './area';
import { CodedError, jsonContent } from '../openapi/registry';
import { ok } from '../openapi/responses';
import * as examples from './examples';
import { AutomationIdParams } from './schema';

const SkippedTriggersQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    before: z
      .string()
      .regex(/^[1-9][0-9]{0,17}$/, 'must be the id of a skipped trigger')
      .optional(),
    reason: z.enum(TRIGGER_SKIP_REASONS).optional(),
  })
  .strict();

const SkippedTriggerRecord = z
  .object({
    id: z.string(),
    workflow_version: z.number().int(),
    node_id: z.string().nullable().describe('The trigger node that heard the event (whose filter failed); null when the event failed as a whole'),
    event_id: z.string(),
    event: z.string(),
    reason: z.enum(TRIGGER_SKIP_REASONS),
    code: z
      .string()
      .describe(
        'EXPRESSION_ERROR, EXPRESSION_TIMEOUT, EXPRESSION_MEMORY_LIMIT, DISPATCH_FAILED; for run control THROTTLED, DEBOUNCED, BUSY, QUEUE_FULL, REPLACED, CANCELLED',
      ),
    message: z.string().describe("The expression's own message, or the run-control rule that held the trigger back"),
    key: z.string().nullable().describe("Run control's key the trigger was held back under (by default the player's externalId); null otherwise"),
    created_at: z.string(),
  })
  .openapi('SkippedTrigger');

const DispatchLagRecord = z
  .object({
    pending: z.number().int().describe('Events waiting to be dispatched to automations (counted up to 100,000)'),
    oldest_seconds: z.number().describe('Age of the oldest of them; 0 when none waits'),
  })
  .openapi('DispatchLag');

const toRecord = (skip: SkippedTrigger) => ({
  id: skip.id,
  workflow_version: skip.workflowVersion,
  node_id: skip.nodeId,
  event_id: skip.eventId,
  event: skip.event,
  reason: skip.reason,
  code: skip.code,
  message: skip.message,
  key: skip.key,
  created_at: skip.createdAt.toISOString(),
});

const listSkippedHandler = automations.handler(
  { input: { params: AutomationIdParams, query: SkippedTriggersQuery } },
  async ({ deps, ctx, input: { params, query }, principal }) => {
    const skips = await listSkippedTriggers(deps, { operatorId: principal.operatorId, id: params.id, ...query });
    ctx.body = { success: true, data: skips.map(toRecord) };
  },
);

const dispatchLagHandler = automations.handler({}, async ({ deps, ctx, principal }) => {
  const lag = await readDispatchLag(deps, principal.operatorId);
  ctx.body = { success: true, data: { pending: lag.pending, oldest_seconds: Math.round(lag.oldestSeconds * 10) / 10 } };
});

const auth = { 401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials') };

/**
 * Declares what the designer sees of event dispatch on the automations area (docs/workflows.md "How events reach
 * automations"): an automation's skipped triggers, and how far the operator's events wait to be dispatched.
 */
export function declareTriggerSkips(area: Pick<Area<AppDeps, 'manager', Principal>, 'endpoint'>): void {
  area.endpoint({
    method: 'get',
    path: '/workflows/:id/skipped-triggers',
    summary: 'Events the workflow heard and started no run for, newest first, with the reason',
    description:
      "A trigger filter or run-control key that failed for the event (its expression's error, or past its own CPU or memory budget), an event set aside after its dispatch failed three times, or a trigger run control held back (`throttled`, `debounced`, `busy`, `queue_full`, `replaced`, `cancelled`; at most 60 such records per workflow per minute, the rest only counted). Kept 7 days. `before` pages: the last id of the previous page.",

    responses: {
      200: ok(z.array(SkippedTriggerRecord), 'Up to `limit` skipped triggers', examples.skippedTriggers),
      400: jsonContent(CodedError, 'VALIDATION_FAILED naming the field'),
      ...auth,
      404: jsonContent(CodedError, "WORKFLOW_NOT_FOUND (also for another operator's workflow)"),
    },
    ...listSkippedHandler,
  });
  area.endpoint({
    method: 'get',
    path: '/event-dispatch',
    summary: "How far the organisation's events wait to reach its workflows",
    description:
      "Events past the organisation's share of the sandbox or of run starts wait in the outbox, in order, and are dispatched as the share refills: nothing is dropped. The dashboard shows this on the Runs page when the oldest has waited more than a few seconds.",
    responses: { 200: ok(DispatchLagRecord, "Pending events and the oldest one's age", examples.dispatchLag), ...auth },
    ...dispatchLagHandler,
  });
}
