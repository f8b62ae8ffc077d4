import type { Db } from '../knex';

/** Operator-agnostic figures for the metrics scrape: nothing here names an operator or a person. */
export interface MetricsSnapshot {
  outboxBacklog: number;
  /** Age of the oldest event (by occurrence) still waiting for dispatch; 0 when none waits. */
  outboxLagSeconds: number;
  runsRunning: number;
  circuits: Array<{ provider: string; state: string; count: number }>;
}

/**
 * Reads the snapshot in one statement under a 2-second statement timeout, so a slow database makes a scrape
 * fail fast instead of piling up. Each part reads only what an index points at: the outbox's rows waiting for
 * dispatch and the running runs (partial indexes), and circuit_breakers, one row per operator and provider.
 */
export async function readMetricsSnapshot(db: Db): Promise<MetricsSnapshot> {
  return db.transaction(async (trx) => {
    await trx.raw("SET LOCAL statement_timeout = '2s'");
    const result = await trx.raw<{ rows: Array<{ backlog: string; lag: number | null; running: string; circuits: MetricsSnapshot['circuits'] }> }>(
      `SELECT pending.backlog, pending.lag,
              (SELECT count(*) FROM automation_runs WHERE status = 'running') AS running,
              (SELECT coalesce(jsonb_agg(jsonb_build_object('provider', provider, 'state', state, 'count', n)), '[]'::jsonb)
                 FROM (SELECT provider, state, count(*)::int AS n FROM circuit_breakers GROUP BY provider, state) c) AS circuits
         FROM (SELECT count(*) AS backlog, extract(epoch FROM clock_timestamp() - min(occurred_at))::float8 AS lag
                 FROM outbox_events WHERE dispatched_at IS NULL) pending`,
    );
    const row = result.rows[0];
    if (!row) throw new Error('metrics snapshot returned no row');
    return { outboxBacklog: Number(row.backlog), outboxLagSeconds: Math.max(0, row.lag ?? 0), runsRunning: Number(row.running), circuits: row.circuits };
  });
}

/** A finished batch job's type, status and seconds from creation to its end, for the worker's duration histogram. */
export async function batchJobTiming(db: Db, operatorId: string, jobId: string): Promise<{ type: string; status: string; seconds: number } | undefined> {
  const result = await db.raw<{ rows: Array<{ type: string; status: string; seconds: number }> }>(
    `SELECT type, status, extract(epoch FROM completed_at - created_at)::float8 AS seconds
       FROM batch_jobs WHERE operator_id = ? AND id = ? AND completed_at IS NOT NULL`,
    [operatorId, jobId],
  );
  return result.rows[0];
}
