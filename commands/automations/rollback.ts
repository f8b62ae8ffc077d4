import type { Actor } from '../../core/audit';
import { findVersion } from '../../db/queries/automationVersions';
import type { AutomationRow } from '../../db/queries/automations';
import type { CommandDeps } from '../deps';
import { restoredWebhooksOf } from './restoreWebhooks';
import { updateAutomation } from './update';
import { requireAutomation } from './lookup';
import { versionNotFound } from './versions';

export interface RollbackAutomationInput {
  operatorId: string;
  id: string;
  /** The version whose definition becomes the current one. */
  version: number;
  /** Who restores it: recorded with the version it makes and as the audit event's actor. */
  actor: Actor;
}

/**
 * Makes version K's definition current again as a new version N + 1: history only grows, and a run pinned to any
 * version still finds it. It is an update (`updateAutomation`) with K's definition as the body, so everything an
 * update does follows — validation against today's rules, schedules, webhooks, the tool name from the name. Two
 * things are not K's: `active` stays as it is now (switching an automation on or off is not a design change), and
 * webhook secrets, which are never versioned — a webhook step present now keeps its id and secret, one removed since
 * comes back under its former id (restoreWebhooks.ts). When K defines what runs now, nothing changes and no version
 * is made. `WORKFLOW_NOT_FOUND`, `VERSION_NOT_FOUND`.
 */
export async function rollbackAutomation(deps: Pick<CommandDeps, 'db' | 'keyring' | 'syncSchedules'>, input: RollbackAutomationInput): Promise<AutomationRow> {
  const current = await requireAutomation(deps, input.operatorId, input.id);
  const target = await findVersion(deps.db, input.operatorId, current.id, input.version);
  if (!target) throw versionNotFound(input.version);
  // The tool name follows the name; a field stored as null (a setting not set) is sent as absent.
  const { mcp_tool_name: _derived, ...stored } = target.definition;
  const definition = Object.fromEntries(Object.entries(stored).filter(([, value]) => value !== null));
  return updateAutomation(deps, {
    operatorId: input.operatorId,
    id: current.id,
    body: { ...definition, active: current.active },
    restoredWebhooks: restoredWebhooksOf(target.definition.nodes),
    actor: input.actor,
    audit: { action: 'automation.rolled_back', note: (row) => `version ${input.version} restored as version ${row.version}` },
  });
}
