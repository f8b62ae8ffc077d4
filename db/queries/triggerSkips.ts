import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Knex | Knex.Transaction;

/** Why an automation heard an event and started no run for it (docs/workflows.md "Skipped triggers"). */
export const TRIGGER_SKIP_REASONS = ['filter_failed', 'key_failed', 'dispatch_failed'] as const;
export type TriggerSkipReason = (typeof TRIGGER_SKIP_REASONS)[number];

export interface TriggerSkip {
  operatorId: string;
  workflowId: string;
  workflowVersion: number;
  nodeId: string | null;
  eventId: string;
  event: string;
  reason: TriggerSkipReason;
  /** `EXPRESSION_ERROR`, `EXPRESSION_TIMEOUT`, `EXPRESSION_MEMORY_LIMIT`, `DISPATCH_FAILED`. */
  code: string;
  /** Sealed by the caller: a JSONata message can quote the event's values. */
  sealedMessage: string;
}

export interface TriggerSkipRow {
  id: string;
  workflow_version: number;
  node_id: string | null;
  event_id: string;
  event: string;
  reason: TriggerSkipReason;
  code: string;
  message: string;
  created_at: Date;
}

/** Records skips; one per (automation, event, reason), so a pass repeated after a crash records nothing twice. */
export async function insertTriggerSkips(db: Runner, skips: TriggerSkip[]): Promise<void> {
  if (skips.length === 0) return;
  await db('workflow_trigger_skips')
    .insert(
      skips.map((skip) => ({
        operator_id: skip.operatorId,
        workflow_id: skip.workflowId,
        workflow_version: skip.workflowVersion,
        node_id: skip.nodeId,
        event_id: skip.eventId,
        event: skip.event,
        reason: skip.reason,
        code: skip.code,
        message: skip.sealedMessage,
      })),
    )
    .onConflict(['operator_id', 'workflow_id', 'event_id', 'reason'])
    .ignore();
}

/** An automation's skips, newest first, `before` an id for the next page; the message still sealed. */
export async function listTriggerSkips(
  db: Db,
  operatorId: string,
  workflowId: string,
  page: { limit: number; before?: string; reason?: TriggerSkipReason },
): Promise<TriggerSkipRow[]> {
  const query = db('workflow_trigger_skips')
    .where({ operator_id: operatorId, workflow_id: workflowId })
    .orderBy('id', 'desc')
    .limit(page.limit)
    .select<TriggerSkipRow[]>('id', 'workflow_version', 'node_id', 'event_id', 'event', 'reason', 'code', 'message', 'created_at');
  if (page.before !== undefined) void query.where('id', '<', page.before);
  if (page.reason !== undefined) void query.where('reason', page.reason);
  const rows = await query;
  return rows.map((row) => ({ ...row, id: String(row.id) }));
}

/** Deletes the skips of an entity's events (erasure: a message may quote the event's values). */
export async function forgetEntityTriggerSkips(db: Runner, operatorId: string, entityId: string): Promise<void> {
  await db('workflow_trigger_skips')
    .where({ operator_id: operatorId })
    .whereIn('event_id', db('outbox_events').select('id').where({ operator_id: operatorId, entity_id: entityId }))
    .delete();
}

/** Deletes skips recorded before `before`, every operator's (the retention run's housekeeping, by the database clock). */
export async function purgeTriggerSkips(db: Db, olderThanDays: number): Promise<number> {
  return db('workflow_trigger_skips').whereRaw('created_at < now() - make_interval(days => ?)', [olderThanDays]).delete();
}
