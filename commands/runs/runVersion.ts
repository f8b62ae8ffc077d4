import type { AutomationDefinition } from '../../core/automations/types';
import { findVersion } from '../../db/queries/automationVersions';
import type { AutomationRow } from '../../db/queries/automations';
import type { Db } from '../../db/knex';

/** What of an automation a run begins from. */
export type RunAutomation = Pick<AutomationRow, 'id' | 'operator_id' | 'active' | 'version' | 'name' | 'nodes' | 'edges'>;

/** The definition a run executes and the version it records: what the run begins with stays in its history to its end. */
export interface RunVersion {
  version: number;
  name: string;
  definition: AutomationDefinition;
}

/**
 * The version a run begins with: `pinnedVersion` from `automation_versions` (a rerun on its original's version), else
 * the automation's current definition. Undefined when the pinned version does not exist for this automation.
 */
export async function runVersionOf(db: Db, automation: RunAutomation, pinnedVersion: number | undefined): Promise<RunVersion | undefined> {
  if (pinnedVersion === undefined) {
    return { version: automation.version, name: automation.name, definition: { nodes: automation.nodes, edges: automation.edges } };
  }
  const row = await findVersion(db, automation.operator_id, automation.id, pinnedVersion);
  if (!row) return undefined;
  return { version: row.version, name: row.definition.name, definition: { nodes: row.definition.nodes, edges: row.definition.edges } };
}
