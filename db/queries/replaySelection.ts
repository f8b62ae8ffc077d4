import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

/** What a replay (or its preview) selects from: one automation's failed runs started in `[from, to)`, as of `asOf`. */
export interface ReplayScope {
  operatorId: string;
  automationId: string;
  from: Date;
  to: Date;
  /** The replay's `created_at` (its set is fixed then), or now for a preview. */
  asOf: Date;
}

/**
 * The latest attempt of every trigger event a replay is about, one row per event (docs/workflows.md "Rerun and replay").
 * An event is a rerun chain: the original run and every run that reruns it (`rerun_of`), by hand or by a replay, however
 * deep. The events are those with a failed attempt started in `[from, to)`; each is represented by its latest attempt
 * started by `asOf` (by `started_at`, then id), whatever its status, so an event whose last rerun succeeded or still runs
 * is left out by `failedLatest` and one rerun by hand is counted once. Runs started after `asOf` (the job's own reruns
 * among them) never join, so the set is fixed when the replay is created. The walk is bounded by the range's failed runs
 * and their chains: up through the primary key to each seed's topmost ancestor still stored (its root), down from the
 * distinct roots through `automation_runs_rerun_of_idx` (a chain is a tree: `rerun_of` always names an earlier run).
 */
const LATEST_ATTEMPTS = `
  WITH RECURSIVE up AS (
    SELECT id AS seed, id, rerun_of, 0 AS depth FROM automation_runs
     WHERE operator_id = :operatorId AND automation_id = :automationId AND status = 'failed'
       AND started_at >= :from AND started_at < :to AND started_at <= :asOf
    UNION ALL
    SELECT up.seed, p.id, p.rerun_of, up.depth + 1 FROM automation_runs p JOIN up ON p.id = up.rerun_of
     WHERE p.operator_id = :operatorId AND p.automation_id = :automationId
  ), roots AS (
    SELECT DISTINCT root FROM (SELECT DISTINCT ON (seed) id AS root FROM up ORDER BY seed, depth DESC) tops
  ), down AS (
    SELECT root, root AS id FROM roots
    UNION ALL
    SELECT d.root, r.id FROM automation_runs r JOIN down d ON r.rerun_of = d.id
     WHERE r.operator_id = :operatorId AND r.automation_id = :automationId AND r.started_at <= :asOf
  )
  SELECT DISTINCT ON (d.root) r.* FROM down d JOIN automation_runs r ON r.operator_id = :operatorId AND r.id = d.id
   ORDER BY d.root, r.started_at DESC, r.id DESC`;

/**
 * The runs a replay reruns, as a query to select from: the latest attempt of each event of the scope, when it failed and
 * had ended by `asOf`. Alias `c`.
 */
export function failedLatest(db: Runner, scope: ReplayScope): Knex.QueryBuilder {
  const bindings = { operatorId: scope.operatorId, automationId: scope.automationId, from: scope.from, to: scope.to, asOf: scope.asOf };
  return db
    .from(db.raw(`(${LATEST_ATTEMPTS}) AS c`, bindings))
    .where('c.status', 'failed')
    .where('c.completed_at', '<=', scope.asOf);
}

/** How many runs a replay of the scope reruns, by error code, and the first few (oldest first) with their codes. */
export interface ReplayPreview {
  total: number;
  byCode: { code: string; count: number }[];
  sample: { runId: string; rerunOf: string | null; startedAt: string; errorCode: string; failedNodeId: string | null }[];
}

/** The error code a failed run is counted under: its `error.code`, or `UNKNOWN` when it recorded none. */
const CODE = "coalesce(c.error->>'code', 'UNKNOWN')";

export async function previewReplay(db: Runner, scope: ReplayScope, sampleSize: number): Promise<ReplayPreview> {
  const [codes, sample] = await Promise.all([
    failedLatest(db, scope)
      .select(db.raw(`${CODE} AS code`), db.raw('count(*)::int AS count'))
      .groupByRaw(CODE)
      .orderBy([{ column: 'count', order: 'desc' }, { column: 'code' }]) as Promise<{ code: string; count: number }[]>,
    failedLatest(db, scope)
      .select('c.id', 'c.rerun_of', 'c.started_at', db.raw(`${CODE} AS code`), db.raw("c.error->>'nodeId' AS node_id"))
      .orderBy([
        { column: 'c.started_at', order: 'asc' },
        { column: 'c.id', order: 'asc' },
      ])
      .limit(sampleSize) as Promise<{ id: string; rerun_of: string | null; started_at: Date; code: string; node_id: string | null }[]>,
  ]);
  return {
    total: codes.reduce((sum, row) => sum + row.count, 0),
    byCode: codes,
    sample: sample.map((row) => ({
      runId: row.id,
      rerunOf: row.rerun_of,
      startedAt: row.started_at.toISOString(),
      errorCode: row.code,
      failedNodeId: row.node_id,
    })),
  };
}

/** A replay's reruns that did not complete, by error code (`CANCELLED` for cancelled ones), with the first few ids. */
export interface ReplayErrorGroup {
  code: string;
  count: number;
  runIds: string[];
}

export async function replayErrors(db: Runner, operatorId: string, replayId: string, idsPerCode: number): Promise<ReplayErrorGroup[]> {
  const { rows } = await db.raw<{ rows: { code: string; count: number; run_ids: string[] }[] }>(
    `SELECT code, count(*)::int AS count, (array_agg(id ORDER BY started_at, id))[1:${Math.trunc(idsPerCode)}] AS run_ids
       FROM (SELECT id, started_at, CASE WHEN status = 'cancelled' THEN 'CANCELLED' ELSE coalesce(error->>'code', 'UNKNOWN') END AS code
               FROM automation_runs WHERE operator_id = ? AND replay_id = ? AND status IN ('failed', 'cancelled')) f
      GROUP BY code ORDER BY count DESC, code`,
    [operatorId, replayId],
  );
  return rows.map((row) => ({ code: row.code, count: row.count, runIds: row.run_ids }));
}
