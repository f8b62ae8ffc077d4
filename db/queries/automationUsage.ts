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
  const row = await db('operator_quotas')
    .where({ operator_id: operatorId })
    .first<{ actions_per_month: number | null; ai_actions_per_month: number | null } | undefined>();
  return { actions: row?.actions_per_month ?? defaults.actions, aiActions: row?.ai_actions_per_month ?? defaults.aiActions };
}

export async function setQuotaOverride(db: Runner, operatorId: string, limits: { actions: number | null; aiActions: number | null }): Promise<void> {
  await db('operator_quotas')
    .insert({ operator_id: operatorId, actions_per_month: limits.actions, ai_actions_per_month: limits.aiActions })
    .onConflict('operator_id')
    .merge({ actions_per_month: limits.actions, ai_actions_per_month: limits.aiActions, updated_at: db.fn.now() });
}

export async function usageOf(db: Runner, operatorId: string, month: string): Promise<ActionCounts> {
  const row = await db('automation_usage').where({ operator_id: operatorId, month }).first<{ actions: number; ai_actions: number } | undefined>();
  return { actions: row?.actions ?? 0, aiActions: row?.ai_actions ?? 0 };
}

/**
 * Reserves `budget` against the month's usage in one statement (the limits read from the override row or the
 * defaults inside it), so two concurrent runs cannot both take the last Actions; it changes nothing when either limit
 * would be exceeded, and returns a row when it reserved; nothing when its `reserve` value is false. It is a CTE of
 * `insertRun` (db/queries/automationRuns.ts), ahead of the insert that reads what it took; its `?` placeholders take
 * `reservationValues`, in order.
 */
export function reservationStatement(): string {
  return `WITH lim AS (
            SELECT coalesce(q.actions_per_month, ?::int) AS actions, coalesce(q.ai_actions_per_month, ?::int) AS ai_actions
              FROM (SELECT 1) AS one LEFT JOIN operator_quotas q ON q.operator_id = ?::uuid)
          INSERT INTO automation_usage AS u (operator_id, month, actions, ai_actions)
          SELECT ?::uuid, ?, ?::int, ?::int FROM lim WHERE ?::boolean AND ?::int <= lim.actions AND ?::int <= lim.ai_actions
          ON CONFLICT (operator_id, month) DO UPDATE SET actions = u.actions + EXCLUDED.actions, ai_actions = u.ai_actions + EXCLUDED.ai_actions
            WHERE u.actions + EXCLUDED.actions <= (SELECT actions FROM lim) AND u.ai_actions + EXCLUDED.ai_actions <= (SELECT ai_actions FROM lim)
          RETURNING 1`;
}

/** The values of `reservationStatement`'s placeholders; `reserve` false takes nothing. */
export function reservationValues(given: { operatorId: string; month: string; budget: ActionCounts; defaults: ActionCounts }, reserve: boolean): unknown[] {
  const { operatorId, month, budget, defaults } = given;
  return [defaults.actions, defaults.aiActions, operatorId, operatorId, month, budget.actions, budget.aiActions, reserve, budget.actions, budget.aiActions];
}
