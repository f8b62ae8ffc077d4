import type { Context } from 'koa';
import { createAutomation } from '../../commands/automations/create';
import { deleteAutomation } from '../../commands/automations/delete';
import { requireAutomation } from '../../commands/automations/lookup';
import { updateAutomation } from '../../commands/automations/update';
import { listAutomations } from '../../db/queries/automations';
import { actorOf } from '../actor';
import type { AppDeps } from '../deps';
import { operatorOf } from '../middleware/authenticate';
import type { InputOf } from '../endpoint';
import { type ListAutomationsQuery, type AutomationIdParams } from './schema';
import { toAutomationRecord } from './presenters';

/** `POST /workflows`: the definition is validated and stored by `createAutomation`; 201 with the record (version 1). */
export async function createAutomationHandler(deps: AppDeps, ctx: Context): Promise<void> {
  const row = await createAutomation(deps, {
    operatorId: operatorOf(ctx),
    body: ctx.request.body,
    actor: actorOf(ctx),
    refusePrivateUrls: !deps.config.GATEWAY_ALLOW_PRIVATE_NETWORKS,
  });
  deps.caches.mcpTools.invalidate(row.operator_id);
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

/** `PUT /workflows/:id`: `updateAutomation` replaces the definition (version + 1, triggers follow); 200 with the record. */
export async function updateAutomationHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof AutomationIdParams }>): Promise<void> {
  const row = await updateAutomation(deps, {
    operatorId: operatorOf(ctx),
    id: params.id,
    body: ctx.request.body,
    actor: actorOf(ctx),
    refusePrivateUrls: !deps.config.GATEWAY_ALLOW_PRIVATE_NETWORKS,
  });
  deps.caches.mcpTools.invalidate(row.operator_id);
  ctx.body = { success: true, data: toAutomationRecord(row) };
}

/** `DELETE /workflows/:id`: `deleteAutomation` soft-deletes it (schedules and webhooks stop, runs stay readable). */
export async function deleteAutomationHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof AutomationIdParams }>): Promise<void> {
  await deleteAutomation(deps, { operatorId: operatorOf(ctx), id: params.id, actor: actorOf(ctx) });
  deps.caches.mcpTools.invalidate(operatorOf(ctx));
  ctx.body = { success: true, data: { id: params.id, deleted: true } };
}
