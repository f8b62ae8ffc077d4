import type { Context } from 'koa';
import { prefixedId } from '../../core/ids';
import { validateAutomationBody, type AutomationBody } from '../../core/automations/definition';
import { deleteWebhooksOfAutomation, replaceWebhooks, webhooksOfAutomation } from '../../db/queries/automationWebhooks';
import { findAutomation, insertAutomation, listAutomations, softDeleteAutomation, updateAutomation, type AutomationRow } from '../../db/queries/automations';
import { syncAutomationSchedules } from '../../temporal/automationSchedules';
import { regexProblems } from '../../sandbox/redos';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { freeToolName, sealWebhooks, withToolNameRetry, automationWrite } from './persist';
import { type ListAutomationsQuery, type AutomationIdParams } from './schema';
import { toAutomationRecord } from './presenters';

/**
 * The body validated (every problem at once), then its regexes checked for catastrophic backtracking
 * (`sandbox/redos.ts`): a 400 `VALIDATION_FAILED` names each field.
 */
async function validBody(ctx: Context): Promise<AutomationBody> {
  const result = validateAutomationBody(ctx.request.body);
  const details = result.ok ? await regexProblems(result.value.nodes) : result.details;
  if (!result.ok || details.length > 0) {
    const summary = details.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    throw new AppError(400, 'VALIDATION_FAILED', `Invalid workflow: ${summary}`, { details });
  }
  return result.value;
}

/** 404 `WORKFLOW_NOT_FOUND` for an unknown id or another operator's workflow alike. */
export async function requireAutomation(deps: AppDeps, operatorId: string, id: string): Promise<AutomationRow> {
  const row = await findAutomation(deps.db, operatorId, id);
  if (!row) throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
  return row;
}

/**
 * `POST /workflows`: stores a validated definition (version 1) and creates its schedules in the same
 * transaction, so a workflow never exists without its triggers. 201 with the record.
 */
export async function createAutomationHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const body = await validBody(ctx);
  const operatorId = operatorOf(ctx);
  const id = prefixedId('wf');
  const row = await withToolNameRetry(() =>
    deps.db.transaction(async (trx) => {
      const { nodes, webhooks } = sealWebhooks(body.nodes, [], deps.keyring, operatorId, id);
      const created = await insertAutomation(trx, operatorId, id, automationWrite(body, nodes, await freeToolName(trx, operatorId, body.name)));
      await replaceWebhooks(trx, operatorId, id, webhooks);
      await syncAutomationSchedules(deps.temporal, { operatorId, automationId: id, previous: [], next: body.active ? nodes : null });
      return created;
    }),
  );
  ctx.status = 201;
  ctx.body = { success: true, data: toAutomationRecord(row) };
}

export async function listAutomationsHandler(deps: AppDeps, ctx: Context, { query }: InputOf<{ query: typeof ListAutomationsQuery }>): Promise<void> {
  const { rows, count } = await listAutomations(deps.db, operatorOf(ctx), query);
  ctx.body = { success: true, data: rows.map(toAutomationRecord), count };
}

export async function getAutomationHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof AutomationIdParams }>): Promise<void> {
  ctx.body = { success: true, data: toAutomationRecord(await requireAutomation(deps, operatorOf(ctx), params.id)) };
}

/**
 * `PUT /workflows/:id`: replaces the definition and bumps `version`; schedules follow (created, updated,
 * removed, or all removed when deactivated), webhooks of removed nodes stop answering.
 */
export async function updateAutomationHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof AutomationIdParams }>): Promise<void> {
  const body = await validBody(ctx);
  const operatorId = operatorOf(ctx);
  const row = await withToolNameRetry(() =>
    deps.db.transaction(async (trx) => {
      const existing = await findAutomation(trx, operatorId, params.id, { forUpdate: true });
      if (!existing) throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
      const { nodes, webhooks } = sealWebhooks(body.nodes, await webhooksOfAutomation(trx, operatorId, existing.id), deps.keyring, operatorId, existing.id);
      const toolName = body.name === existing.name ? existing.mcp_tool_name : await freeToolName(trx, operatorId, body.name, existing.id);
      const updated = await updateAutomation(trx, operatorId, existing.id, automationWrite(body, nodes, toolName), existing.active);
      await replaceWebhooks(trx, operatorId, existing.id, webhooks);
      await syncAutomationSchedules(deps.temporal, { operatorId, automationId: existing.id, previous: existing.nodes, next: body.active ? nodes : null });
      return updated;
    }),
  );
  ctx.body = { success: true, data: toAutomationRecord(row) };
}

/** `DELETE /workflows/:id`: soft delete; its schedules and webhooks are removed, its runs stay readable. */
export async function deleteAutomationHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof AutomationIdParams }>): Promise<void> {
  const operatorId = operatorOf(ctx);
  await deps.db.transaction(async (trx) => {
    const existing = await findAutomation(trx, operatorId, params.id, { forUpdate: true });
    if (!existing) throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
    await softDeleteAutomation(trx, operatorId, existing.id);
    await deleteWebhooksOfAutomation(trx, operatorId, existing.id);
    await syncAutomationSchedules(deps.temporal, { operatorId, automationId: existing.id, previous: existing.nodes, next: null });
  });
  ctx.body = { success: true, data: { id: params.id, deleted: true } };
}
