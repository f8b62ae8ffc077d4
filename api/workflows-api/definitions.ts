import type { Context } from 'koa';
import { prefixedId } from '../../core/ids';
import { validateWorkflowBody, type WorkflowBody } from '../../core/workflows/definition';
import { deleteWebhooksOfWorkflow, replaceWebhooks, webhooksOfWorkflow } from '../../db/queries/workflowWebhooks';
import { findWorkflow, insertWorkflow, listWorkflows, softDeleteWorkflow, toWorkflowRecord, updateWorkflow, type WorkflowRow } from '../../db/queries/workflows';
import { syncAutomationSchedules } from '../../temporal/automationSchedules';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { principalOf } from '../middleware/authenticate';
import { inputOf } from '../middleware/validate';
import { freeToolName, sealWebhooks, withToolNameRetry, workflowWrite } from './persist';
import { ListWorkflowsQuery, WorkflowIdParams } from './schema';

function validBody(ctx: Context): WorkflowBody {
  const result = validateWorkflowBody(ctx.request.body);
  if (!result.ok) {
    const summary = result.details.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    throw new AppError(400, 'VALIDATION_FAILED', `Invalid workflow: ${summary}`, { details: result.details });
  }
  return result.value;
}

/** 404 `WORKFLOW_NOT_FOUND` for an unknown id or another operator's workflow alike. */
export async function requireWorkflow(deps: AppDeps, operatorId: string, id: string): Promise<WorkflowRow> {
  const row = await findWorkflow(deps.db, operatorId, id);
  if (!row) throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
  return row;
}

/**
 * `POST /workflows`: stores a validated definition (version 1) and creates its schedules in the same
 * transaction, so a workflow never exists without its triggers. 201 with the record.
 */
export async function createWorkflowHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const body = validBody(ctx);
  const operatorId = principalOf(ctx).operatorId;
  const id = prefixedId('wf');
  const row = await withToolNameRetry(() => deps.db.transaction(async (trx) => {
    const { nodes, webhooks } = sealWebhooks(body.nodes, [], deps.keyring, operatorId, id);
    const created = await insertWorkflow(trx, operatorId, id, workflowWrite(body, nodes, await freeToolName(trx, operatorId, body.name)));
    await replaceWebhooks(trx, operatorId, id, webhooks);
    await syncAutomationSchedules(deps.temporal, { operatorId, workflowId: id, previous: [], next: body.active ? nodes : null });
    return created;
  }));
  ctx.status = 201;
  ctx.body = { success: true, data: toWorkflowRecord(row) };
}

export async function listWorkflowsHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const { query } = inputOf(ctx, { query: ListWorkflowsQuery });
  const { rows, count } = await listWorkflows(deps.db, principalOf(ctx).operatorId, query);
  ctx.body = { success: true, data: rows.map(toWorkflowRecord), count };
}

export async function getWorkflowHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const { params } = inputOf(ctx, { params: WorkflowIdParams });
  ctx.body = { success: true, data: toWorkflowRecord(await requireWorkflow(deps, principalOf(ctx).operatorId, params.id)) };
}

/**
 * `PUT /workflows/:id`: replaces the definition and bumps `version`; schedules follow (created, updated,
 * removed, or all removed when deactivated), webhooks of removed nodes stop answering.
 */
export async function updateWorkflowHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const { params } = inputOf(ctx, { params: WorkflowIdParams });
  const body = validBody(ctx);
  const operatorId = principalOf(ctx).operatorId;
  const row = await withToolNameRetry(() => deps.db.transaction(async (trx) => {
    const existing = await findWorkflow(trx, operatorId, params.id, { forUpdate: true });
    if (!existing) throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
    const { nodes, webhooks } = sealWebhooks(body.nodes, await webhooksOfWorkflow(trx, operatorId, existing.id), deps.keyring, operatorId, existing.id);
    const toolName = body.name === existing.name ? existing.mcp_tool_name : await freeToolName(trx, operatorId, body.name, existing.id);
    const updated = await updateWorkflow(trx, operatorId, existing.id, workflowWrite(body, nodes, toolName), existing.active);
    await replaceWebhooks(trx, operatorId, existing.id, webhooks);
    await syncAutomationSchedules(deps.temporal, { operatorId, workflowId: existing.id, previous: existing.nodes, next: body.active ? nodes : null });
    return updated;
  }));
  ctx.body = { success: true, data: toWorkflowRecord(row) };
}

/** `DELETE /workflows/:id`: soft delete; its schedules and webhooks are removed, its runs stay readable. */
export async function deleteWorkflowHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const { params } = inputOf(ctx, { params: WorkflowIdParams });
  const operatorId = principalOf(ctx).operatorId;
  await deps.db.transaction(async (trx) => {
    const existing = await findWorkflow(trx, operatorId, params.id, { forUpdate: true });
    if (!existing) throw new AppError(404, 'WORKFLOW_NOT_FOUND', 'Workflow not found');
    await softDeleteWorkflow(trx, operatorId, existing.id);
    await deleteWebhooksOfWorkflow(trx, operatorId, existing.id);
    await syncAutomationSchedules(deps.temporal, { operatorId, workflowId: existing.id, previous: existing.nodes, next: null });
  });
  ctx.body = { success: true, data: { id: params.id, deleted: true } };
}
