import type { Knex } from 'knex';
import { findAutomation, type AutomationRow } from '../../db/queries/automations';
import type { CommandDeps } from '../deps';
import { CommandError } from '../errors';

const notFound = () => new CommandError('WORKFLOW_NOT_FOUND', 'Workflow not found');

/**
 * The operator's live workflow, or `WORKFLOW_NOT_FOUND` for an unknown id and another operator's workflow alike,
 * so an id never tells whether it exists elsewhere.
 */
export async function requireAutomation(deps: Pick<CommandDeps, 'db'>, operatorId: string, id: string): Promise<AutomationRow> {
  const row = await findAutomation(deps.db, operatorId, id);
  if (!row) throw notFound();
  return row;
}

/** As `requireAutomation`, with the row locked until `trx` ends: an update or delete works on the version it read. */
export async function lockAutomation(trx: Knex.Transaction, operatorId: string, id: string): Promise<AutomationRow> {
  const row = await findAutomation(trx, operatorId, id, { forUpdate: true });
  if (!row) throw notFound();
  return row;
}
