import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Knex | Knex.Transaction;

/** What run control held back (workflows/automationLane.ts): the lane's reasons, as its metric names them. */
export const RUN_CONTROL_SKIP_REASONS = ['throttled', 'debounced', 'busy', 'queue_full', 'replaced', 'cancelled'] as const;
export type RunControlSkipReason = (typeof RUN_CONTROL_SKIP_REASONS)[number];

/** Why an automation heard an event and started no run for it (docs/workflows.md "Skipped triggers"). */
export const TRIGGER_SKIP_REASONS = ['filter_failed', 'key_failed', 'dispatch_failed', ...RUN_CONTROL_SKIP_REASONS] as const;
export type TriggerSkipReason = (typeof TRIGGER_SKIP_REASONS)[number];

/**
 * Run control's records an automation gets per minute, counting every skipped trigger it got in that minute: a flood of
 * throttled events leaves examples, not one row each (the metric counts them all).
 */
export const RUN_CONTROL_SKIPS_PER_MINUTE = 60;

export interface TriggerSkip {
  operatorId: string;
  automationId: string;
  automationVersion: number;
  nodeId: string | null;
  eventId: string;
  event: string;
  reason: TriggerSkipReason;
  /** `EXPRESSION_ERROR`, `EXPRESSION_TIMEOUT`, `EXPRESSION_MEMORY_LIMIT`, `DISPATCH_FAILED`. */
  code: string;
  /** Sealed by the caller: a JSONata message can quote the event's values. */
  sealedMessage: string;
  /** Run control's key the trigger was held back under, sealed by the caller (by default the player's externalId). */
  sealedKey?: string | null;
  /** When it was decided; the database's clock when absent. */
  at?: Date;
}

export interface TriggerSkipRow {
  id: string;
  automation_version: number;
  node_id: string | null;
  event_id: string;
  event: string;
  reason: TriggerSkipReason;
  code: string;
  message: string;
  run_key: string | null;
  created_at: Date;
}

const rowOf = (skip: TriggerSkip) => ({
  operator_id: skip.operatorId,
  automation_id: skip.automationId,
  automation_version: skip.automationVersion,
  node_id: skip.nodeId,
  event_id: skip.eventId,
  event: skip.event,
  reason: skip.reason,
  code: skip.code,
  message: skip.sealedMessage,
  run_key: skip.sealedKey ?? null,
  ...(skip.at ? { created_at: skip.at } : {}),
});

/** Records skips; one per (automation, event, reason), so a pass repeated after a crash records nothing twice. */
export async function insertTriggerSkips(db: Runner, skips: TriggerSkip[]): Promise<void> {
  if (skips.length === 0) return;
  await db('automation_trigger_skips').insert(skips.map(rowOf)).onConflict(['operator_id', 'automation_id', 'event_id', 'reason']).ignore();
}

/**
 * Records one automation's run-control skips while it has fewer than `cap` records of the last minute (by the
 * database clock), the rest left out. The automation's inserts take turns (a transaction
 * lock on operator and automation), so lanes of many keys never pass the cap together; the count reads at most `cap`
 * rows of the minute index. `left`: how many were not recorded for the cap.
 */
export async function insertCappedTriggerSkips(
  db: Db,
  scope: { operatorId: string; automationId: string },
  skips: TriggerSkip[],
  cap: number = RUN_CONTROL_SKIPS_PER_MINUTE,
): Promise<{ recorded: number; left: number }> {
  const mine = skips.filter((skip) => skip.operatorId === scope.operatorId && skip.automationId === scope.automationId);
  if (mine.length === 0) return { recorded: 0, left: 0 };
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 44))', [`trigger-skips:${scope.operatorId}:${scope.automationId}`]);
    const recent = trx('automation_trigger_skips')
      .where({ operator_id: scope.operatorId, automation_id: scope.automationId })
      .whereRaw("created_at > now() - interval '1 minute'")
      .select(trx.raw('1'))
      .limit(cap);
    const counted = await trx.from(recent.as('recent')).count<Array<{ count: string }>>({ count: '*' });
    const room = Math.max(0, cap - Number(counted[0]?.count ?? 0));
    const taken = mine.slice(0, room);
    const inserted =
      taken.length === 0
        ? []
        : await trx('automation_trigger_skips')
            .insert(taken.map(rowOf))
            .onConflict(['operator_id', 'automation_id', 'event_id', 'reason'])
            .ignore()
            .returning('id');
    return { recorded: inserted.length, left: mine.length - taken.length };
  });
}

/** An automation's skips, newest first, `before` an id for the next page; the message still sealed. */
export async function listTriggerSkips(
  db: Db,
  operatorId: string,
  automationId: string,
  page: { limit: number; before?: string; reason?: TriggerSkipReason },
): Promise<TriggerSkipRow[]> {
  const query = db('automation_trigger_skips')
    .where({ operator_id: operatorId, automation_id: automationId })
    .orderBy('id', 'desc')
    .limit(page.limit)
    .select<TriggerSkipRow[]>('id', 'automation_version', 'node_id', 'event_id', 'event', 'reason', 'code', 'message', 'run_key', 'created_at');
  if (page.before !== undefined) void query.where('id', '<', page.before);
  if (page.reason !== undefined) void query.where('reason', page.reason);
  const rows = await query;
  return rows.map((row) => ({ ...row, id: String(row.id) }));
}

/** Deletes the skips of an entity's events (erasure: a message may quote the event's values). */
export async function forgetEntityTriggerSkips(db: Runner, operatorId: string, entityId: string): Promise<void> {
  await db('automation_trigger_skips')
    .where({ operator_id: operatorId })
    .whereIn('event_id', db('outbox_events').select('id').where({ operator_id: operatorId, entity_id: entityId }))
    .delete();
}

/** Deletes skips recorded before `before`, every operator's (the retention run's housekeeping, by the database clock). */
export async function purgeTriggerSkips(db: Db, olderThanDays: number): Promise<number> {
  return db('automation_trigger_skips').whereRaw('created_at < now() - make_interval(days => ?)', [olderThanDays]).delete();
}
