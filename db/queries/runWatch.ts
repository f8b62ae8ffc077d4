import type { Db } from '../knex';

/** A running run the watchdog should look at in Temporal. */
export interface WatchedRun {
  operator_id: string;
  id: string;
  temporal_workflow_id: string;
  /** The watchdog's last look: at a running workflow, or, after its workflow closed, its first failed read of the outcome. */
  checked_at: Date | null;
  reserved_actions: number;
  reserved_ai_actions: number;
}

/**
 * Running runs worth a look, oldest look first: started over `quietMs` ago and not found healthy in the last
 * `recheckMs` — or, for a run asleep in a delay (`waiting_until` ahead), in the last `sleepingRecheckMs`, so a run
 * whose workflow was ended by hand while it slept is found before it would have woken. Across operators on purpose,
 * like the outbox claim: one watchdog serves every tenant, and each run is then handled with its own operator id;
 * `operatorId` narrows a pass to one tenant.
 */
export async function runsToWatch(
  db: Db,
  options: { quietMs: number; recheckMs: number; sleepingRecheckMs: number; limit: number; operatorId?: string },
): Promise<WatchedRun[]> {
  const { rows } = await db.raw<{ rows: WatchedRun[] }>(
    `SELECT operator_id, id, temporal_workflow_id, checked_at, reserved_actions, reserved_ai_actions FROM automation_runs
      WHERE status = 'running' AND (:operator::uuid IS NULL OR operator_id = :operator::uuid)
        AND started_at < now() - :quiet::float8 * interval '1 millisecond'
        AND (checked_at IS NULL OR checked_at < now() - (CASE WHEN waiting_until >= now() - :quiet::float8 * interval '1 millisecond'
                                                              THEN :sleeping::float8 ELSE :recheck::float8 END) * interval '1 millisecond')
      ORDER BY checked_at NULLS FIRST, started_at
      LIMIT :limit`,
    { quiet: options.quietMs, recheck: options.recheckMs, sleeping: options.sleepingRecheckMs, limit: options.limit, operator: options.operatorId ?? null },
  );
  return rows;
}

export async function markRunChecked(db: Db, run: Pick<WatchedRun, 'operator_id' | 'id'>): Promise<void> {
  await db('automation_runs').where({ operator_id: run.operator_id, id: run.id, status: 'running' }).update({ checked_at: db.fn.now() });
}
