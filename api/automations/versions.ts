import type { Context } from 'koa';
import { rollbackAutomation } from '../../commands/automations/rollback';
import { diffAutomationVersions, getAutomationVersion, listAutomationVersions } from '../../commands/automations/versions';
import type { VersionRow, VersionSummaryRow } from '../../db/queries/automationVersions';
import { actorOf } from '../actor';
import type { AppDeps } from '../deps';
import type { InputOf } from '../endpoint';
import { operatorOf } from '../middleware/authenticate';
import { toAutomationRecord } from './presenters';
import type { AutomationIdParams } from './schema';
import type { DiffQuery, ListVersionsQuery, VersionParams } from './versionSchema';

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
  workflow_id: row.workflow_id,
  version: row.version,
  created_at: row.created_at.toISOString(),
  created_by: row.created_by,
  definition: row.definition,
});

/** `GET /workflows/:id/versions`: a page of versions, newest first, each summarised (no definition). */
export async function listVersionsHandler(
  deps: AppDeps,
  ctx: Context,
  { params, query }: InputOf<{ params: typeof AutomationIdParams; query: typeof ListVersionsQuery }>,
): Promise<void> {
  const { rows, count } = await listAutomationVersions(deps, { operatorId: operatorOf(ctx), id: params.id, ...query });
  ctx.body = { success: true, data: rows.map(toVersionSummary), count };
}

/** `GET /workflows/:id/versions/:version`: the whole stored definition. */
export async function getVersionHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof VersionParams }>): Promise<void> {
  const row = await getAutomationVersion(deps, { operatorId: operatorOf(ctx), id: params.id, version: params.version });
  ctx.body = { success: true, data: toVersionRecord(row) };
}

/** `GET /workflows/:id/diff?from=K&to=M`: what changed from K to M (core/automations/versionDiff.ts). */
export async function diffVersionsHandler(
  deps: AppDeps,
  ctx: Context,
  { params, query }: InputOf<{ params: typeof AutomationIdParams; query: typeof DiffQuery }>,
): Promise<void> {
  ctx.body = { success: true, data: await diffAutomationVersions(deps, { operatorId: operatorOf(ctx), id: params.id, from: query.from, to: query.to }) };
}

/** `POST /workflows/:id/versions/:version/rollback`: version K's definition as a new version; 200 with the workflow. */
export async function rollbackHandler(deps: AppDeps, ctx: Context, { params }: InputOf<{ params: typeof VersionParams }>): Promise<void> {
  const row = await rollbackAutomation(deps, { operatorId: operatorOf(ctx), id: params.id, version: params.version, actor: actorOf(ctx) });
  deps.caches.mcpTools.invalidate(row.operator_id);
  ctx.body = { success: true, data: toAutomationRecord(row) };
}
