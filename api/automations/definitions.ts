import { createAutomation } from '../../commands/automations/create';
import { deleteAutomation } from '../../commands/automations/delete';
import { requireAutomation } from '../../commands/automations/lookup';
import { updateAutomation } from '../../commands/automations/update';
import { listAutomations } from '../../db/queries/automations';
import { actorOf } from '../actor';
import { ListAutomationsQuery, AutomationIdParams } from './schema';
import { toAutomationRecord } from './presenters';
import { automations } from './area';

/**
 * `POST /workflows`: the definition is validated and stored by `createAutomation`; 201 with the record (version 1).
 * The body is handed to it raw: core/automations/definition.ts names every problem of a definition, which a schema
 * here would answer less precisely.
 */
export const createAutomationHandler = automations.handler({ raw: ['body'] }, async ({ deps, ctx, principal, raw }) => {
  const row = await createAutomation(deps, {
    operatorId: principal.operatorId,
    body: raw.body,
    actor: actorOf(principal),
    refusePrivateUrls: !deps.config.GATEWAY_ALLOW_PRIVATE_NETWORKS,
  });
  deps.caches.mcpTools.invalidate(row.operator_id);
  ctx.status = 201;
  ctx.body = { success: true, data: toAutomationRecord(row) };
});

export const listAutomationsHandler = automations.handler({ input: { query: ListAutomationsQuery } }, async ({ deps, ctx, input: { query }, principal }) => {
  const { rows, count } = await listAutomations(deps.db, principal.operatorId, query);
  ctx.body = { success: true, data: rows.map(toAutomationRecord), count };
});

export const getAutomationHandler = automations.handler({ input: { params: AutomationIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  ctx.body = { success: true, data: toAutomationRecord(await requireAutomation(deps, principal.operatorId, params.id)) };
});

/** `PUT /workflows/:id`: `updateAutomation` replaces the definition (version + 1, triggers follow); 200 with the record. */
export const updateAutomationHandler = automations.handler(
  { input: { params: AutomationIdParams }, raw: ['body'] },
  async ({ deps, ctx, input: { params }, principal, raw }) => {
    const row = await updateAutomation(deps, {
      operatorId: principal.operatorId,
      id: params.id,
      body: raw.body,
      actor: actorOf(principal),
      refusePrivateUrls: !deps.config.GATEWAY_ALLOW_PRIVATE_NETWORKS,
    });
    deps.caches.mcpTools.invalidate(row.operator_id);
    ctx.body = { success: true, data: toAutomationRecord(row) };
  },
);

/** `DELETE /workflows/:id`: `deleteAutomation` soft-deletes it (schedules and webhooks stop, runs stay readable). */
export const deleteAutomationHandler = automations.handler({ input: { params: AutomationIdParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  await deleteAutomation(deps, { operatorId: principal.operatorId, id: params.id, actor: actorOf(principal) });
  deps.caches.mcpTools.invalidate(principal.operatorId);
  ctx.body = { success: true, data: { id: params.id, deleted: true } };
});
