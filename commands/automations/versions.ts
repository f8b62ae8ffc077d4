import type { Knex } from 'knex';
import { diffVersions, type VersionDefinition, type VersionDiff } from '../../core/automations/versionDiff';
import { findVersion, insertVersion, listVersions, type VersionRow, type VersionSummaryRow } from '../../db/queries/automationVersions';
import type { AutomationRow, AutomationWrite } from '../../db/queries/automations';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';
import { requireAutomation } from './lookup';

/** Columns of a workflow write that are not its definition: where the editor shows steps, and what is derived from nodes. */
const NOT_DEFINITION = new Set(['layout', 'trigger_events']);

/**
 * What a version stores of a write: every field but the layout and what is derived, so a definition field added to
 * the write is versioned without a change here. Webhook nodes are already sealed: `webhookId` and `hasSecret`, no secret.
 */
export function versionDefinitionOf(write: AutomationWrite): VersionDefinition {
  return Object.fromEntries(Object.entries(write).filter(([key]) => !NOT_DEFINITION.has(key))) as VersionDefinition;
}

/** Stores the version `row` now has, in the transaction that made it, so a version never exists without its row. */
export async function recordVersion(trx: Knex.Transaction, row: AutomationRow, write: AutomationWrite, createdBy: string | null | undefined): Promise<void> {
  await insertVersion(trx, {
    operatorId: row.operator_id,
    automationId: row.id,
    version: row.version,
    definition: versionDefinitionOf(write),
    createdBy: createdBy ?? null,
  });
}

/** `VERSION_NOT_FOUND`: the workflow never had this version (or is another operator's, refused as `WORKFLOW_NOT_FOUND` first). */
export const versionNotFound = (version: number) => new CommandError('VERSION_NOT_FOUND', `Version ${version} not found`);

/**
 * A stored version of the operator's live workflow: `WORKFLOW_NOT_FOUND` for an unknown workflow (another
 * operator's too), `VERSION_NOT_FOUND` for a version it never had.
 */
export async function getAutomationVersion(deps: Pick<CommandDeps, 'db'>, input: { operatorId: string; id: string; version: number }): Promise<VersionRow> {
  const automation = await requireAutomation(deps, input.operatorId, input.id);
  const row = await findVersion(deps.db, input.operatorId, automation.id, input.version);
  if (!row) throw versionNotFound(input.version);
  return row;
}

/** A page of the workflow's versions, newest first (`WORKFLOW_NOT_FOUND`). */
export async function listAutomationVersions(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; id: string; limit: number; offset: number },
): Promise<{ rows: VersionSummaryRow[]; count: number }> {
  const automation = await requireAutomation(deps, input.operatorId, input.id);
  return listVersions(deps.db, input.operatorId, automation.id, input);
}

/** What changed from version `from` to version `to` (core/automations/versionDiff.ts); either may be the older one. */
export async function diffAutomationVersions(
  deps: Pick<CommandDeps, 'db'>,
  input: { operatorId: string; id: string; from: number; to: number },
): Promise<VersionDiff> {
  const automation = await requireAutomation(deps, input.operatorId, input.id);
  const [from, to] = await Promise.all([input.from, input.to].map((version) => findVersion(deps.db, input.operatorId, automation.id, version)));
  if (!from) throw versionNotFound(input.from);
  if (!to) throw versionNotFound(input.to);
  return diffVersions(from, to);
}
