import type { Knex } from 'knex';
import type { Keyring } from '../../core/crypto';
import { REDACTED_MESSAGE, toRunRecord, type StoredRun } from '../../core/automations/runRecord';
import { REDACTED, runSubjectCandidates, sealRunInput, sealRunResult } from '../../core/runSeal';
import { isRecord, type AutomationRunRecord, type NodeResult, type RunError, type RunSource, type RunStatus } from '../../core/automations/types';
import type { AwaitingInput } from '../../core/automations/approval';
import { openText, sealText } from '../../core/sealedText';
import { boundedMessage, RECORD_OPEN_MAX_BYTES, splitNodes, type ValueReader } from '../../core/automations/runValues';
import { deleteRunValues, storeRunValue } from './runValues';
import type { Db } from '../knex';
import { hotQuery, numbered, type HotStatement } from '../hot';
import { reservationStatement, reservationValues, type ActionCounts } from './automationUsage';

type Runner = Db | Knex.Transaction;

/** PostgreSQL's `unique_violation`: the run's Temporal workflow id (or id) is taken. */
const UNIQUE_VIOLATION = '23505';

/** An `automation_runs` row; the API record is built from it by core/automations/runRecord.ts. */
export interface RunRow extends StoredRun {
  trigger_node_id: string | null;
  mcp_request: string | null;
  subject_external_ids: string[] | null;
  /** Sealed: what the running run waits for someone to answer (`awaitingInputOf`); null otherwise. */
  awaiting_input: string | null;
  usage_month: string;
  reserved_actions: number;
  reserved_ai_actions: number;
}

export interface NewRun {
  id: string;
  operatorId: string;
  automationId: string;
  automationVersion: number;
  source: RunSource;
  triggerNodeId: string | null;
  temporalWorkflowId: string;
  /** `<session> <JSON-RPC id>` of the MCP `tools/call` that started the run, so it can be cancelled. */
  mcpRequest?: string;
  input: unknown;
  usageMonth: string;
  reserved: { actions: number; aiActions: number };
  /** A rerun: the run it repeats, the step it reruns from, and the replay job that started it (if any). */
  rerun?: { runId: string; fromNodeId: string; replayId?: string };
  /** Why the run is refused before its first node: it is recorded `failed` with this error, reserving nothing. */
  refused?: RunError;
}

/** A `RunRow`'s columns, named: a prepared statement returning `*` fails once a migration adds a column. */
const RUN_COLUMNS = `id, operator_id, automation_id, automation_version, source, status, trigger_node_id, temporal_workflow_id, mcp_request,
  subject_external_ids, input, output, nodes, error, awaiting_input, usage_month, reserved_actions, reserved_ai_actions, started_at,
  completed_at, duration_ms, rerun_of, rerun_from_node_id, replay_id`;

/**
 * The entities of the operator a trigger payload names by value (their external id or id, under any key): their
 * external ids, and whether one of them is already erased — the first CTE of `insertRun`.
 */
const SUBJECTS = {
  none: `SELECT '{}'::text[] AS ids, false AS erased`,
  named: `SELECT coalesce(array_agg(DISTINCT external_id ORDER BY external_id), '{}'::text[]) AS ids, coalesce(bool_or(deleted_at IS NOT NULL), false) AS erased
            FROM entities WHERE operator_id = ?::uuid AND (external_id = ANY(?::text[]) OR id = ANY(?::text[]))`,
};

/**
 * `insertRun`'s one statement, per kind of payload: the reservation is a CTE the insert reads, so it is taken first,
 * and the run is `running` with it or `failed` without it; the insert has no `ON CONFLICT`, so a second begin of the
 * same run fails whole, its reservation with it.
 */
function insertRunStatement(subjects: keyof typeof SUBJECTS): HotStatement {
  return {
    name: `insert_run_${subjects}`,
    text: numbered(
      `WITH subjects AS (${SUBJECTS[subjects]}),
       reservation AS (${reservationStatement()}),
       taken AS (SELECT EXISTS (SELECT 1 FROM reservation) AS reserved),
       inserted AS (
         INSERT INTO automation_runs (id, operator_id, automation_id, automation_version, source, status, trigger_node_id, temporal_workflow_id, mcp_request,
                                    subject_external_ids, input, usage_month, reserved_actions, reserved_ai_actions, rerun_of, rerun_from_node_id,
                                    replay_id, output, error, completed_at, duration_ms)
         SELECT ?, ?::uuid, ?, ?::int, ?, CASE WHEN t.reserved THEN 'running' ELSE 'failed' END, ?, ?, ?, s.ids,
                CASE WHEN s.erased THEN ?::jsonb ELSE ?::jsonb END, ?, CASE WHEN t.reserved THEN ?::int ELSE 0 END,
                CASE WHEN t.reserved THEN ?::int ELSE 0 END, ?, ?, ?, CASE WHEN t.reserved THEN NULL ELSE ?::jsonb END,
                CASE WHEN t.reserved THEN NULL ELSE ?::jsonb END, CASE WHEN t.reserved THEN NULL ELSE now() END,
                CASE WHEN t.reserved THEN NULL ELSE 0 END
           FROM subjects s, taken t
         RETURNING ${RUN_COLUMNS})
       SELECT * FROM inserted`,
    ),
  };
}

const INSERT_RUN = { none: insertRunStatement('none'), named: insertRunStatement('named') };

/**
 * Inserts a run and reserves its `reserved` Actions against the month's usage, in one autocommitted statement: the
 * run is `running` when the reservation was taken, `failed` with `quota.exceeded` when the quota could not cover
 * it, and `failed` with `run.refused`, reserving nothing, when it is refused anyway. So whenever the process dies, a
 * running run holds its reservation and a failed one none: nothing the watchdog gives back was never taken. A second
 * insert for the same Temporal workflow id fails on its unique key, reserving nothing, and returns the first run with
 * `created: false`. A run whose payload names an entity already erased is recorded redacted from the start (and stays
 * so when it finishes): erasure's promise holds for runs started after it too.
 */
export async function insertRun(
  db: Runner,
  keyring: Keyring,
  run: NewRun,
  quota: { defaults: ActionCounts; exceeded: RunError },
): Promise<{ row: RunRow; created: boolean }> {
  const candidates = runSubjectCandidates(run.input);
  const failed = await sealRunResult(keyring, run.operatorId, run.id, { output: null, nodes: [], error: run.refused ?? quota.exceeded });
  const reservation = { operatorId: run.operatorId, month: run.usageMonth, budget: run.reserved, defaults: quota.defaults };
  try {
    const [inserted] = await hotQuery<RunRow>(db, candidates.length > 0 ? INSERT_RUN.named : INSERT_RUN.none, [
      ...(candidates.length > 0 ? [run.operatorId, candidates, candidates] : []),
      ...reservationValues(reservation, run.refused === undefined),
      run.id,
      run.operatorId,
      run.automationId,
      run.automationVersion,
      run.source,
      run.triggerNodeId,
      run.temporalWorkflowId,
      run.mcpRequest ?? null,
      JSON.stringify(REDACTED),
      JSON.stringify(await sealRunInput(keyring, run.operatorId, run.id, run.input)),
      run.usageMonth,
      run.reserved.actions,
      run.reserved.aiActions,
      run.rerun?.runId ?? null,
      run.rerun?.fromNodeId ?? null,
      run.rerun?.replayId ?? null,
      JSON.stringify(failed.output),
      JSON.stringify(failed.error),
    ]);
    if (!inserted) throw new Error(`run ${run.id} was not inserted`);
    return { row: inserted, created: true };
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    const existing = await db<RunRow>('automation_runs').where({ operator_id: run.operatorId, temporal_workflow_id: run.temporalWorkflowId }).first();
    if (!existing) throw new Error('run insert conflicted with a run of another operator', { cause: error });
    return { row: existing, created: false };
  }
}

const DURATION_MS = 'greatest(0, round(extract(epoch FROM (clock_timestamp() - started_at)) * 1000))::int';

/**
 * Replaces the error of a run refused before its first node (`insertRun`'s `quota.exceeded`, once the caller knows
 * the limits it met). Returns undefined when the run is not a failed one.
 */
export async function restateRefusal(db: Runner, keyring: Keyring, operatorId: string, runId: string, error: RunError): Promise<RunRow | undefined> {
  const sealed = await sealRunResult(keyring, operatorId, runId, { output: null, nodes: [], error });
  const [row] = (await db('automation_runs')
    .where({ operator_id: operatorId, id: runId, status: 'failed' })
    .update({ output: JSON.stringify(sealed.output), error: JSON.stringify(sealed.error) })
    .returning('*')) as RunRow[];
  return row;
}

/**
 * A sealed column as a read selects it: as stored when PostgreSQL holds it in at most {@link RECORD_OPEN_MAX_BYTES},
 * else a truncated marker with its stored size, so a record written before step values were stored apart (486 MB in
 * the issue that bounded them) never crosses to the API at all.
 */
const guarded = (column: 'input' | 'output') =>
  `CASE WHEN pg_column_size(${column}) > ${RECORD_OPEN_MAX_BYTES} THEN jsonb_build_object('_truncated', true, 'bytes', pg_column_size(${column}), 'preview', '') ELSE ${column} END AS ${column}`;

const READ_COLUMNS = RUN_COLUMNS.replace(/\binput, output,/, `${guarded('input')}, ${guarded('output')},`);

/** One of the operator's runs, its sealed columns bounded (`guarded`); undefined when the operator has no such run. */
export async function findRun(db: Runner, operatorId: string, runId: string): Promise<RunRow | undefined> {
  const { rows } = await db.raw<{ rows: RunRow[] }>(`SELECT ${READ_COLUMNS} FROM automation_runs WHERE operator_id = ? AND id = ?`, [operatorId, runId]);
  return rows[0];
}

/** One run as the API shows it, its sealed parts opened (`toRunRecord`); undefined when the operator has no such run. */
export async function findRunRecord(db: Runner, keyring: Keyring, operatorId: string, runId: string): Promise<AutomationRunRecord | undefined> {
  const row = await findRun(db, operatorId, runId);
  return row && (await toRunRecord(row, keyring));
}

/** The running run an MCP `tools/call` started (`mcpRequestKey`), to cancel it; nothing once it has ended. */
export async function findRunningMcpCall(db: Runner, operatorId: string, mcpRequest: string): Promise<Pick<RunRow, 'id' | 'temporal_workflow_id'> | undefined> {
  return db<RunRow>('automation_runs').where({ operator_id: operatorId, mcp_request: mcpRequest, status: 'running' }).first('id', 'temporal_workflow_id');
}

const SUMMARY_COLUMNS = [
  'id',
  'operator_id',
  'automation_id',
  'automation_version',
  'source',
  'status',
  'temporal_workflow_id',
  'nodes',
  'error',
  'started_at',
  'completed_at',
  'duration_ms',
  'rerun_of',
  'rerun_from_node_id',
  'replay_id',
];

/** A page of an automation's runs without their sealed parts (core/automations/runRecord.ts `toRunSummary`). */
export async function listRuns(
  db: Runner,
  operatorId: string,
  automationId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: RunRow[]; count: number }> {
  const scoped = () => db<RunRow>('automation_runs').where({ operator_id: operatorId, automation_id: automationId });
  const [rows, total] = await Promise.all([
    scoped()
      .orderBy([
        { column: 'started_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset)
      .select(SUMMARY_COLUMNS) as Promise<RunRow[]>,
    scoped().count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, count: Number(total[0]?.count ?? 0) };
}

/** `finishRun`'s one statement: the run closed, and what it reserved beyond what it executed given back. */
const FINISH_RUN: HotStatement = {
  name: 'finish_run',
  text: numbered(`WITH closed AS (
       UPDATE automation_runs SET status = ?, output = CASE WHEN input = ?::jsonb THEN input ELSE ?::jsonb END, nodes = ?::jsonb,
              error = CASE WHEN input = ?::jsonb THEN jsonb_set(?::jsonb, '{message}', ?::jsonb) ELSE ?::jsonb END, completed_at = now(),
              duration_ms = ${DURATION_MS}, awaiting_input = NULL
        WHERE operator_id = ? AND id = ? AND status = 'running'
       RETURNING ${RUN_COLUMNS}),
     given_back AS (
       UPDATE automation_usage u
          SET actions = greatest(0, u.actions - greatest(0, c.reserved_actions - ?::int)),
              ai_actions = greatest(0, u.ai_actions - greatest(0, c.reserved_ai_actions - ?::int))
         FROM closed c
        WHERE u.operator_id = ? AND u.month = c.usage_month AND (c.reserved_actions > ?::int OR c.reserved_ai_actions > ?::int))
     SELECT * FROM closed`),
};

/**
 * Closes a running run and gives back the reserved Actions it did not execute, in one statement, and
 * returns the closed run; a retried finish finds the run already closed, changes nothing and returns it as stored.
 * A run whose entity was erased while it ran keeps erasure's marker instead of its result. Large step values are
 * stored apart first (core/automations/runValues.ts); given `read`, the outcome may hold references to values kept
 * out of Temporal, read in one at a time.
 */
export async function finishRun(
  db: Runner,
  keyring: Keyring,
  operatorId: string,
  runId: string,
  result: {
    status: Exclude<RunStatus, 'running'>;
    output: unknown;
    nodes: NodeResult[];
    error: RunError | null;
    executed: { actions: number; aiActions: number };
  },
  read?: ValueReader,
): Promise<RunRow | undefined> {
  const split = await splitNodes(result.nodes, result.output, (value) => storeRunValue(db, keyring, operatorId, runId, value), read);
  const bounded = { ...result, ...split, error: result.error && { ...result.error, message: boundedMessage(result.error.message) } };
  const sealed = await sealRunResult(keyring, operatorId, runId, bounded);
  const [closed] = await hotQuery<RunRow>(db, FINISH_RUN, [
    result.status,
    JSON.stringify(REDACTED),
    JSON.stringify(sealed.output),
    JSON.stringify(sealed.nodes),
    JSON.stringify(REDACTED),
    sealed.error ? JSON.stringify(sealed.error) : null,
    JSON.stringify(REDACTED_MESSAGE),
    sealed.error ? JSON.stringify(sealed.error) : null,
    operatorId,
    runId,
    result.executed.actions,
    result.executed.aiActions,
    operatorId,
    result.executed.actions,
    result.executed.aiActions,
  ]);
  // Erased while it ran: the record kept erasure's marker, and the values just stored apart go too.
  if (closed && isRecord(closed.input) && closed.input._redacted === true) await deleteRunValues(db, operatorId, [runId]);
  return closed ?? (await findRun(db, operatorId, runId));
}

/**
 * Erasure's part in runs (spec 3.4, docs/security.md): every run about the entity — named by
 * `subject_external_ids`, or, for a row written before that column, by its plaintext payload — loses its trigger
 * payload, its output and every node's output and error to `{ _redacted: true }`, and its step values stored apart
 * (db/queries/runValues.ts) are deleted; error codes and statuses stay. Returns how many runs it redacted.
 */
export async function redactEntityRuns(trx: Runner, operatorId: string, externalId: string): Promise<number> {
  const redacted = JSON.stringify(REDACTED);
  const ids = (await trx('automation_runs')
    .where({ operator_id: operatorId })
    .whereNot('input', '@>', trx.raw('?::jsonb', [redacted]))
    .where((scope) =>
      scope
        .whereRaw('subject_external_ids @> ARRAY[?]::text[]', [externalId])
        .orWhereRaw(
          `subject_external_ids IS NULL AND jsonb_typeof(input) = 'object' AND (input -> 'entity' ->> 'externalId' = ? OR input ->> 'externalId' = ? OR input ->> 'external_id' = ?)`,
          [externalId, externalId, externalId],
        ),
    )
    .update({
      input: redacted,
      output: redacted,
      nodes: trx.raw(
        `(SELECT coalesce(jsonb_agg(n - 'output' - 'error' ORDER BY i), '[]'::jsonb) FROM jsonb_array_elements(nodes) WITH ORDINALITY AS e(n, i))`,
      ),
      error: trx.raw(`CASE WHEN error IS NULL THEN NULL ELSE jsonb_set(error, '{message}', ?::jsonb) END`, [JSON.stringify(REDACTED_MESSAGE)]),
    })
    .returning('id')) as Array<{ id: string }>;
  await deleteRunValues(
    trx,
    operatorId,
    ids.map((row) => row.id),
  );
  return ids.length;
}

/**
 * Records what a running run waits for a person or an agent to answer (sealed), or that it no longer waits (null);
 * the watchdog leaves it alone until the approval times out.
 */
export async function markRunAwaitingInput(db: Runner, keyring: Keyring, operatorId: string, runId: string, awaiting: AwaitingInput | null): Promise<void> {
  const sealed = awaiting ? await sealText(keyring, JSON.stringify(awaiting), awaitingContext(operatorId, runId)) : null;
  await db('automation_runs')
    .where({ operator_id: operatorId, id: runId, status: 'running' })
    .update({ awaiting_input: sealed, ...(awaiting ? { waiting_until: new Date(awaiting.until) } : {}) });
}

const awaitingContext = (operatorId: string, runId: string) => `run-awaiting:${operatorId}:${runId}`;

/** The input a run waits for, opened; undefined when it waits for none. */
export async function awaitingInputOf(
  keyring: Keyring,
  row: { operator_id: string; id: string; awaiting_input?: string | null },
): Promise<AwaitingInput | undefined> {
  if (!row.awaiting_input) return undefined;
  return JSON.parse(await openText(keyring, row.awaiting_input, awaitingContext(row.operator_id, row.id))) as AwaitingInput;
}

/** Notes that a run sleeps until `until` (a long `action.delay`), so the watchdog leaves it alone until then. */
export async function markRunWaiting(db: Runner, operatorId: string, runId: string, until: Date): Promise<void> {
  await db('automation_runs').where({ operator_id: operatorId, id: runId, status: 'running' }).update({ waiting_until: until });
}
