import { rollbackAutomation } from '../../commands/automations/rollback';
import { diffAutomationVersions, getAutomationVersion, listAutomationVersions } from '../../commands/automations/versions';
import type { VersionRow, VersionSummaryRow } from '../../db/queries/automationVersions';
import { actorOf } from '../actor';
import { toAutomationRecord } from './presenters';
import { AutomationIdParams } from './schema';
import { DiffQuery, ListVersionsQuery, VersionParams } from './versionSchema';
import { automations } from './area';

const toVersionSummary = (row: VersionSummaryRow) => ({
  version: row.version,
  name: row.name,
  description: row.description,
  node_count: row.node_count,
  edge_count: row.edge_count,
  created_at: row.created_at.toISOString(),
  created_by: row.created_by,
  saved_by: row.saved_by,
});

const toVersionRecord = (row: VersionRow) => ({
  workflow_id: row.automation_id,
  version: row.version,
  created_at: row.created_at.toISOString(),
  created_by: row.created_by,
  definition: row.definition,
});

/** `GET /workflows/:id/versions`: a page of versions, newest first, each summarised (no definition). */
export const listVersionsHandler = automations.handler(
  { input: { params: AutomationIdParams, query: ListVersionsQuery } },
  async ({ deps, ctx, input: { params, query }, principal }) => {
    const { rows, count } = await listAutomationVersions(deps, { operatorId: principal.operatorId, id: params.id, ...query });
    ctx.body = { success: true, data: rows.map(toVersionSummary), count };
  },
);

/** `GET /workflows/:id/versions/:version`: the whole stored definition. */
export const getVersionHandler = automations.handler({ input: { params: VersionParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await getAutomationVersion(deps, { operatorId: principal.operatorId, id: params.id, version: params.version });
  ctx.body = { success: true, data: toVersionRecord(row) };
});

/** `GET /workflows/:id/diff?from=K&to=M`: what changed from K to M (core/automations/versionDiff.ts). */
export const diffVersionsHandler = automations.handler(
  { input: { params: AutomationIdParams, query: DiffQuery } },
  async ({ deps, ctx, input: { params, query }, principal }) => {
    ctx.body = { success: true, data: await diffAutomationVersions(deps, { operatorId: principal.operatorId, id: params.id, from: query.from, to: query.to }) };
  },
);

/** `POST /workflows/:id/versions/:version/rollback`: version K's definition as a new version; 200 with the workflow. */
export const rollbackHandler = automations.handler({ input: { params: VersionParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  const row = await rollbackAutomation(deps, { operatorId: principal.operatorId, id: params.id, version: params.version, actor: actorOf(principal) });
  deps.caches.mcpTools.invalidate(row.operator_id);
  ctx.body = { success: true, data: toAutomationRecord(row) };
});
