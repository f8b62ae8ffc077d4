import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export interface ActionCounts {
  actions: number;
  aiActions: number;
}

/** The calendar month (UTC) a usage figure belongs to, as `YYYY-MM`. */
export const usageMonthOf = (date: Date): string => date.toISOString().slice(0, 7);

/** The operator's monthly limits: the CLI's override where set, the configured defaults otherwise. */
export async function quotaLimits(db: Runner, operatorId: string, defaults: ActionCounts): Promise<ActionCounts> {
  const row = await db('operator_quotas').where({ operator_id: operatorId }).first<{ actions_per_month: number | null; ai_actions_per_month: number | null } | undefined>();
  return { actions: row?.actions_per_month ?? defaults.actions, aiActions: row?.ai_actions_per_month ?? defaults.aiActions };
}

export async function setQuotaOverride(db: Runner, operatorId: string, limits: { actions: number | null; aiActions: number | null }): Promise<void> {
  await db('operator_quotas')
    .insert({ operator_id: operatorId, actions_per_month: limits.actions, ai_actions_per_month: limits.aiActions })
    .onConflict('operator_id')
    .merge({ actions_per_month: limits.actions, ai_actions_per_month: limits.aiActions, updated_at: db.fn.now() });
}

export async function usageOf(db: Runner, operatorId: string, month: string): Promise<ActionCounts> {
  const row = await db('workflow_usage').where({ operator_id: operatorId, month }).first<{ actions: number; ai_actions: number } | undefined>();
  return { actions: row?.actions ?? 0, aiActions: row?.ai_actions ?? 0 };
}

/**
 * Reserves `budget` against the month's usage in one conditional UPDATE, so two concurrent runs cannot
 * both take the last Actions. Returns false (and changes nothing) when either limit would be exceeded.
 */
export async function reserveActions(trx: Runner, operatorId: string, month: string, budget: ActionCounts, limits: ActionCounts): Promise<boolean> {
  await trx('workflow_usage').insert({ operator_id: operatorId, month }).onConflict(['operator_id', 'month']).ignore();
  const result = await trx.raw<{ rowCount: number }>(
    `UPDATE workflow_usage SET actions = actions + ?, ai_actions = ai_actions + ?
      WHERE operator_id = ? AND month = ? AND actions + ? <= ? AND ai_actions + ? <= ?`,
    [budget.actions, budget.aiActions, operatorId, month, budget.actions, limits.actions, budget.aiActions, limits.aiActions],
  );
  return result.rowCount === 1;
}

/** Gives back the reserved Actions a run did not execute (branches not taken, a failure part-way). */
export async function releaseActions(trx: Runner, operatorId: string, month: string, unused: ActionCounts): Promise<void> {
  if (unused.actions === 0 && unused.aiActions === 0) return;
  await trx('workflow_usage')
    .where({ operator_id: operatorId, month })
    .update({ actions: trx.raw('greatest(0, actions - ?)', [unused.actions]), ai_actions: trx.raw('greatest(0, ai_actions - ?)', [unused.aiActions]) });
}
