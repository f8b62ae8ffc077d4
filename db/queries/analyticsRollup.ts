import type { Db } from '../knex';
import { foldPlayerCounts } from './analyticsPlayerCount';
import { foldBatch, subtractErased } from './analyticsRollupBatch';
import { moveKeys } from './analyticsRollupJurisdictions';

/** At most this many events per transaction: a batch's locks and temp table stay small, and a crash loses one batch's work. */
export const ROLLUP_BATCH_EVENTS = 50_000;
const VIEW_SET = 'analytics';
/** `POST /refresh` looks at its deadline at least every this many batches, so a long backlog cannot hold the request. */
const CATCH_UP_BATCHES_PER_CHECK = 4;

export interface PassResult {
  /** Event rows read (counted or not) and batches committed by this pass. */
  events: number;
  batches: number;
  /** Players taken out of the rollups because they were erased since the last pass. */
  erased: number;
  /** True when the pass reached its bound (false: stopped by `maxBatches`; the next pass goes on from the cursor). */
  complete: boolean;
  /** The rollups' watermark time after the pass: every event committed before it is counted (null before the first). */
  refreshedAt: Date | null;
}

interface Snapshot {
  xmin: string;
  xmax: string;
  at: Date;
}

/**
 * The bound of a pass: every transaction with an id below `xmin` has ended, so its rows are all visible now and no
 * row can still appear below it; transactions at or above it (in flight, or later) are read by a later pass.
 */
async function snapshot(db: Db): Promise<Snapshot> {
  const result = await db.raw(
    `SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax, now() AS at FROM (SELECT pg_current_snapshot() AS s) x`,
  );
  return result.rows[0] as Snapshot;
}

/**
 * Records how far the rollups are true, in the same transaction as the last batch. `refreshed_at` is a snapshot's time
 * once every transaction below its xmax is read: at once when nothing was in flight, else when a later pass's bound has
 * passed that xmax (the "pending" snapshot), so it never claims events still being committed. Never moves back.
 */
async function settle(trx: Db, snap: Snapshot): Promise<void> {
  const state = await trx('analytics_rollup_state').where({ id: 1 }).first('pending_xmax', 'pending_at');
  let reached: Date | null = null;
  let pending: { pending_xmax: string | null; pending_at: Date | null } = { pending_xmax: state.pending_xmax, pending_at: state.pending_at };
  if (state.pending_xmax !== null && BigInt(snap.xmin) >= BigInt(state.pending_xmax)) {
    reached = state.pending_at as Date;
    pending = { pending_xmax: null, pending_at: null };
  }
  if (snap.xmin === snap.xmax) {
    reached = snap.at;
    pending = { pending_xmax: null, pending_at: null };
  } else if (pending.pending_xmax === null) {
    pending = { pending_xmax: snap.xmax, pending_at: snap.at };
  }
  await trx('analytics_rollup_state').where({ id: 1 }).update(pending);
  if (!reached) return;
  await trx.raw(
    `INSERT INTO analytics_refreshes (view_set, refreshed_at) VALUES (?, ?)
     ON CONFLICT (view_set) DO UPDATE SET refreshed_at = greatest(analytics_refreshes.refreshed_at, excluded.refreshed_at)`,
    [VIEW_SET, reached],
  );
}

/**
 * One catch-up pass: folds every event that arrived since the last pass into the per-operator rollups, in batches of
 * at most `batchEvents`, each in ONE transaction with the cursor (a re-run after a crash starts from the last
 * committed batch, so nothing counts twice), after folding the player count's changes (analyticsPlayerCount.ts). Passes may overlap (the Schedule and `POST /refresh`): the state row's
 * lock serialises their batches and each reads the cursor the other left. Cost follows what arrived, not history.
 */
export async function runRollupPass(db: Db, options: { batchEvents?: number; maxBatches?: number } = {}): Promise<PassResult> {
  const batchEvents = options.batchEvents ?? ROLLUP_BATCH_EVENTS;
  const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
  const snap = await snapshot(db);
  await foldPlayerCounts(db);
  const result: PassResult = { events: 0, batches: 0, erased: 0, complete: false, refreshedAt: null };
  while (result.batches < maxBatches && !result.complete) {
    await db.transaction(async (trx) => {
      const state = await trx('analytics_rollup_state').where({ id: 1 }).forUpdate().first('cursor_xid', 'cursor_id');
      result.erased += await subtractErased(trx);
      await moveKeys(trx);
      const batch = await foldBatch(trx, { xid: String(state.cursor_xid), id: state.cursor_id }, snap.xmin, batchEvents);
      result.batches += 1;
      result.events += batch.events;
      await trx('analytics_rollup_state')
        .where({ id: 1 })
        .update({ cursor_xid: batch.cursor.xid, cursor_id: batch.cursor.id, events_read: trx.raw('events_read + ?', [batch.events]) });
      if (batch.events < batchEvents) {
        result.complete = true;
        await settle(trx, snap);
      }
    });
  }
  result.refreshedAt = await lastRollupTime(db);
  return result;
}

/** The rollups' watermark time, or null before their first complete pass (the raw tables answer then). */
export async function lastRollupTime(db: Db): Promise<Date | null> {
  const row = await db('analytics_refreshes').where({ view_set: VIEW_SET }).first('refreshed_at');
  return row ? (row.refreshed_at as Date) : null;
}

/**
 * Catches up now (`POST /refresh`): passes until the watermark covers every event committed before the call, or
 * `waitMs` has gone by (a transaction held open elsewhere holds the bound back; the answer then says how far it got).
 */
export async function catchUpRollups(db: Db, options: { waitMs?: number; pollMs?: number } = {}): Promise<Date | null> {
  const started = await snapshot(db);
  const deadline = Date.now() + (options.waitMs ?? 15_000);
  for (;;) {
    const pass = await runRollupPass(db, { maxBatches: CATCH_UP_BATCHES_PER_CHECK });
    if (pass.refreshedAt && pass.refreshedAt.getTime() >= new Date(started.at).getTime()) return pass.refreshedAt;
    if (Date.now() >= deadline) return pass.refreshedAt;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}
