import type { Knex } from 'knex';
import type { RunError, RunSource, RunStatus } from '../../core/automations/types';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

/** What the runs explorer narrows an operator's runs to; every part optional, all of them together (AND). */
export interface RunsFilter {
  status?: RunStatus;
  automationId?: string;
  /** An entity's external id: runs whose payload named it (`subject_external_ids`). */
  player?: string;
  source?: RunSource;
  /** `started_at` from (inclusive) and to (exclusive). */
  from?: Date;
  to?: Date;
  version?: number;
  /** The branch a condition node took (`nodes[].branch`, kept in the clear). */
  branch?: { nodeId: string; taken: boolean };
  /** Runs with a step the gate suppressed (`nodes[].suppressed`, kept in the clear): by any rule (`true`) or by one. */
  suppressed?: { rule: string | null };
}

/**
 * Where a page starts: after `offset` rows, or — keyset — after the run a previous page ended on. `startedAt` is the
 * run's `started_at` as PostgreSQL text with microseconds, so the comparison is exact (a JS Date keeps milliseconds).
 */
export type RunsPageStart = { offset: number } | { after: { startedAt: string; id: string } };

/** One run as the explorer lists it: nothing sealed, the automation's name beside its id. */
export interface ExplorerRunRow {
  id: string;
  automation_id: string;
  automation_name: string | null;
  automation_version: number;
  source: RunSource;
  status: RunStatus;
  temporal_workflow_id: string;
  error: Pick<RunError, 'code' | 'nodeId'> | null;
  subject_external_ids: string[] | null;
  started_at: Date;
  completed_at: Date | null;
  duration_ms: number | null;
  /** The run this one reruns (db/migrations/20261129110000_add_workflow_runs_rerun.ts). */
  rerun_of: string | null;
  /** `started_at` at full precision, for the keyset cursor. */
  started_key: string;
  /** The entries of `nodes` a gate suppressed (`[{ id, suppressed: { rule } }, …]`, often empty). */
  suppressed_nodes: Array<{ id: string; suppressed: { rule: string } }> | null;
}

/**
 * The condition entries of a run's `nodes` (those with `branch`), exactly as `automation_runs_branches_idx` indexes
 * them (db/migrations/20261129140000): a branch filter is a containment test that index answers. `\\?` is knex's
 * escape for the jsonpath filter's literal `?`.
 */
const BRANCHES = `jsonb_path_query_array(r.nodes, '$[*] \\? (exists (@.branch))')`;

const COLUMNS = [
  'r.id',
  'r.automation_id',
  'w.name as automation_name',
  'r.automation_version',
  'r.source',
  'r.status',
  'r.temporal_workflow_id',
  'r.error',
  'r.subject_external_ids',
  'r.started_at',
  'r.completed_at',
  'r.duration_ms',
  'r.rerun_of',
];

function filtered(db: Runner, operatorId: string, filter: RunsFilter): Knex.QueryBuilder {
  const query = db('automation_runs as r').where('r.operator_id', operatorId);
  if (filter.status) query.where('r.status', filter.status);
  if (filter.automationId) query.where('r.automation_id', filter.automationId);
  if (filter.player) query.whereRaw('r.subject_external_ids @> ARRAY[?]::text[]', [filter.player]);
  if (filter.source) query.where('r.source', filter.source);
  if (filter.from) query.where('r.started_at', '>=', filter.from);
  if (filter.to) query.where('r.started_at', '<', filter.to);
  if (filter.version !== undefined) query.where('r.automation_version', filter.version);
  if (filter.branch) query.whereRaw(`${BRANCHES} @> ?::jsonb`, [JSON.stringify([{ id: filter.branch.nodeId, branch: filter.branch.taken }])]);
  if (filter.suppressed)
    query.whereRaw('r.nodes @> ?::jsonb', [JSON.stringify([{ suppressed: filter.suppressed.rule ? { rule: filter.suppressed.rule } : {} }])]);
  return query;
}

/**
 * A page of the operator's runs across its automations, newest first (`started_at`, then id), with the total the
 * filter matches and whether more follow. Reads no sealed column: payloads, outputs and messages stay in the run.
 */
export async function exploreRuns(
  db: Runner,
  operatorId: string,
  filter: RunsFilter,
  page: { limit: number; start: RunsPageStart },
): Promise<{ rows: ExplorerRunRow[]; count: number; more: boolean }> {
  const rowsQuery = filtered(db, operatorId, filter)
    .leftJoin('automations as w', function joinAutomation() {
      this.on('w.id', 'r.automation_id').andOn('w.operator_id', 'r.operator_id');
    })
    .select(COLUMNS)
    .select(db.raw(`to_char(r.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started_key`))
    .select(db.raw(`jsonb_path_query_array(r.nodes, '$[*] \\? (exists (@.suppressed))') AS suppressed_nodes`))
    .orderBy([
      { column: 'r.started_at', order: 'desc' },
      { column: 'r.id', order: 'desc' },
    ])
    .limit(page.limit + 1);
  if ('after' in page.start) rowsQuery.whereRaw('(r.started_at, r.id) < (?::timestamptz, ?)', [page.start.after.startedAt, page.start.after.id]);
  else rowsQuery.offset(page.start.offset);
  const [rows, total] = await Promise.all([
    rowsQuery as Promise<ExplorerRunRow[]>,
    filtered(db, operatorId, filter).count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows: rows.slice(0, page.limit), count: Number(total[0]?.count ?? 0), more: rows.length > page.limit };
}

/** Whether the operator has (or had: a deleted automation keeps its runs) an automation with this id. */
export async function automationEverExisted(db: Runner, operatorId: string, automationId: string): Promise<boolean> {
  return (await db('automations').where({ operator_id: operatorId, id: automationId }).first('id')) !== undefined;
}
