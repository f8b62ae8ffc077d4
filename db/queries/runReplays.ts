import type { Knex } from 'knex';
import type { RerunVersion } from '../../core/automations/rerun';
import type { Db } from '../knex';
import { failedLatest } from './replaySelection';

type Runner = Db | Knex.Transaction;

export type ReplayStatus = 'running' | 'completed' | 'cancelled' | 'failed';

/** A `run_replays` row (db/migrations/20261129110100_create_run_replays.ts). */
export interface ReplayRow {
  id: string;
  operator_id: string;
  automation_id: string;
  range_from: Date;
  range_to: Date;
  version: RerunVersion;
  rate_per_second: number;
  status: ReplayStatus;
  total: number;
  started: number;
  succeeded: number;
  failed: number;
  created_at: Date;
  completed_at: Date | null;
}

/** A run a replay reruns (the latest failed attempt of its event), in the job's order; `cursor` is its `started_at` at full precision, for keyset paging. */
export interface ReplayCandidate {
  id: string;
  source: string;
  trigger_node_id: string | null;
  automation_version: number;
  failed_node_id: string | null;
  cursor: string;
}

/**
 * The runs a replay reruns (db/queries/replaySelection.ts): per trigger event its latest attempt, when that failed, of the
 * events with a failed run started in `[range_from, range_to)`, as of the job's creation — a fixed set, so reruns the
 * job starts (or runs failing meanwhile) never join it, and an event rerun by hand is rerun once, or not at all once its
 * last rerun succeeded.
 */
const candidates = (db: Runner, replay: Pick<ReplayRow, 'operator_id' | 'automation_id' | 'range_from' | 'range_to' | 'created_at'>) =>
  failedLatest(db, {
    operatorId: replay.operator_id,
    automationId: replay.automation_id,
    from: replay.range_from,
    to: replay.range_to,
    asOf: replay.created_at,
  });

/**
 * Records a running replay and its `total`, in one transaction: `busy` (with the running one's id) when the automation
 * already has a running replay, `too_many` (with the count) when the range holds more failed runs than `maxRuns`.
 */
export async function createReplay(
  db: Db,
  replay: { id: string; operatorId: string; automationId: string; from: Date; to: Date; version: RerunVersion; ratePerSecond: number; maxRuns: number },
): Promise<{ kind: 'created'; row: ReplayRow } | { kind: 'busy'; runningId: string } | { kind: 'too_many'; count: number }> {
  return db.transaction(async (trx) => {
    const [inserted] = (await trx('run_replays')
      .insert({
        id: replay.id,
        operator_id: replay.operatorId,
        automation_id: replay.automationId,
        range_from: replay.from,
        range_to: replay.to,
        version: replay.version,
        rate_per_second: replay.ratePerSecond,
      })
      .onConflict(trx.raw("(operator_id, automation_id) WHERE status = 'running'"))
      .ignore()
      .returning('*')) as ReplayRow[];
    if (!inserted) {
      const running = await trx<ReplayRow>('run_replays')
        .where({ operator_id: replay.operatorId, automation_id: replay.automationId, status: 'running' })
        .first('id');
      return { kind: 'busy' as const, runningId: running?.id ?? '' };
    }
    const [counted] = await candidates(trx, inserted).count<{ count: string }[]>({ count: '*' });
    const count = Number(counted?.count ?? 0);
    if (count > replay.maxRuns) {
      await trx('run_replays').where({ operator_id: replay.operatorId, id: replay.id }).delete();
      return { kind: 'too_many' as const, count };
    }
    const [row] = (await trx('run_replays').where({ operator_id: replay.operatorId, id: replay.id }).update({ total: count }).returning('*')) as ReplayRow[];
    return { kind: 'created' as const, row: row! };
  });
}

export async function findReplay(db: Runner, operatorId: string, replayId: string): Promise<ReplayRow | undefined> {
  return db<ReplayRow>('run_replays').where({ operator_id: operatorId, id: replayId }).first();
}

/** The next `limit` runs the replay reruns after `after`, oldest first by `(started_at, id)`. */
export async function replayCandidates(
  db: Runner,
  replay: ReplayRow,
  after: { startedAt: string; id: string } | null,
  limit: number,
): Promise<ReplayCandidate[]> {
  const page = candidates(db, replay)
    .select(
      'c.id',
      'c.source',
      'c.trigger_node_id',
      'c.automation_version',
      db.raw("c.error->>'nodeId' AS failed_node_id"),
      db.raw('c.started_at::text AS cursor'),
    )
    .orderBy([
      { column: 'c.started_at', order: 'asc' },
      { column: 'c.id', order: 'asc' },
    ])
    .limit(limit);
  if (after) page.whereRaw('(c.started_at, c.id) > (?::timestamptz, ?)', [after.startedAt, after.id]);
  return (await page) as ReplayCandidate[];
}

/**
 * Writes a replay's progress: `started` as the job counts it (never going back, so a restarted job does not rewind it),
 * `succeeded` and `failed` counted from its reruns' own rows (completed; failed or cancelled) plus `unrecorded`, reruns
 * that ended without recording a run. With `finish`, a running replay takes that status and its `completed_at`.
 */
export async function recordReplayProgress(
  db: Runner,
  operatorId: string,
  replayId: string,
  progress: { started: number; unrecorded: number; finish?: Exclude<ReplayStatus, 'running'> },
): Promise<ReplayRow | undefined> {
  const finish = progress.finish ?? null;
  const { rows } = await db.raw<{ rows: ReplayRow[] }>(
    `UPDATE run_replays r
        SET started = greatest(r.started, :started::int),
            succeeded = c.succeeded,
            failed = c.failed + :unrecorded::int,
            status = CASE WHEN r.status = 'running' AND :finish::text IS NOT NULL THEN :finish::text ELSE r.status END,
            completed_at = CASE WHEN r.status = 'running' AND :finish::text IS NOT NULL THEN now() ELSE r.completed_at END
       FROM (SELECT count(*) FILTER (WHERE status = 'completed')::int AS succeeded,
                    count(*) FILTER (WHERE status IN ('failed', 'cancelled'))::int AS failed
               FROM automation_runs WHERE operator_id = :operatorId AND replay_id = :replayId) c
      WHERE r.operator_id = :operatorId AND r.id = :replayId
      RETURNING r.*`,
    { started: progress.started, unrecorded: progress.unrecorded, finish, operatorId, replayId },
  );
  return rows[0];
}

/** Marks a running replay cancelled (`POST /replays/:id/cancel`); undefined when it was no longer running. */
export async function markReplayCancelled(db: Runner, operatorId: string, replayId: string): Promise<ReplayRow | undefined> {
  const [row] = (await db('run_replays')
    .where({ operator_id: operatorId, id: replayId, status: 'running' })
    .update({ status: 'cancelled', completed_at: db.fn.now() })
    .returning('*')) as ReplayRow[];
  return row;
}
