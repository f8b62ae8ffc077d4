import { AudienceDefinitionSchema, timeBands } from '../../core/audienceDefinition';
import type { Db } from '../knex';
import { evaluateAudience } from './audienceEvaluate';
import { getSettings } from './settings';

/** Event rows one pass reads at most (a bigger backlog is read by the next passes, from the cursor). */
export const AUDIENCE_PASS_EVENTS = 100_000;
/** Candidates judged per transaction, so one audience's row lock and statement stay small. */
export const AUDIENCE_CANDIDATES_PER_STEP = 5_000;
/**
 * Players changed by entity or state writes, or active on a time band's day, re-judged one by one per operator (or
 * audience) at most; past it (a bulk import, a busy day) the operator's audiences are judged whole, one set-based
 * statement each, and the pass never holds more than this many ids of one kind in memory.
 */
export const AUDIENCE_CANDIDATES_MAX = 50_000;
/**
 * How far back entity and state changes are read again at each pass: their only marker is `updated_at` (the writing
 * transaction's start), so a change committed by a transaction open longer than this is seen with the player's next change.
 */
export const AUDIENCE_CHANGE_OVERLAP_MS = 120_000;

export interface AudiencePassResult {
  /** Event rows read from the cursor. */
  events: number;
  /** Audience evaluations run (one per audience and candidate chunk). */
  evaluations: number;
  entered: number;
  exited: number;
  /** True when the cursor reached the pass's bound (false: the next pass reads on). */
  complete: boolean;
  /** Audiences whose evaluation failed this pass: each is judged whole next pass, the others went on. */
  failed: number;
}

interface AudienceRow {
  id: string;
  operator_id: string;
  definition: unknown;
  version: number;
  evaluated_version: number | null;
  evaluated_day: string | null;
}

const chunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Players whose events committed after the cursor and below the snapshot's xmin (the rollups' bound, docs/analytics.md "Rollups"). */
async function changedByEvents(db: Db, limit: number) {
  const bound = await db.raw(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, now() AS at`);
  const snap = bound.rows[0] as { xmin: string; at: Date };
  const state = await db('audience_pass_state').where({ id: 1 }).first('cursor_xid', 'cursor_id', 'changed_since');
  const result = await db.raw<{ rows: Array<{ operator_id: string; entity_id: string; xid: string; id: string }> }>(
    `SELECT coalesce(ev.ingest_xid, 0)::text AS xid, ev.id, ev.operator_id, ev.entity_id FROM entity_events ev
      WHERE (coalesce(ev.ingest_xid, 0), ev.id) > (CAST(? AS bigint), CAST(? AS text)) AND coalesce(ev.ingest_xid, 0) < CAST(? AS bigint)
      ORDER BY coalesce(ev.ingest_xid, 0), ev.id LIMIT ?`,
    [String(state.cursor_xid), state.cursor_id, snap.xmin, limit],
  );
  const last = result.rows.at(-1);
  return { snap, since: state.changed_since as Date | null, rows: result.rows, cursor: last ? { xid: last.xid, id: last.id } : null };
}

/**
 * Players of these operators whose entity (country, erasure) or a state changed since `since` (less the overlap), at
 * most {@link AUDIENCE_CANDIDATES_MAX} per operator: `overflow` names the operators with more, judged whole instead.
 */
async function changedByWrites(db: Db, operators: string[], since: Date | null, max: number) {
  if (!since) return { rows: [], overflow: new Set<string>() };
  const from = new Date(since.getTime() - AUDIENCE_CHANGE_OVERLAP_MS);
  const result = await db.raw<{ rows: Array<{ operator_id: string; entity_id: string; n: string }> }>(
    `SELECT operator_id, entity_id, n FROM (
       SELECT operator_id, entity_id, row_number() OVER (PARTITION BY operator_id) AS n FROM (
         SELECT operator_id, id AS entity_id FROM entities WHERE operator_id = ANY(CAST(? AS uuid[])) AND updated_at >= ? AND entity_type = 'player'
         UNION
         SELECT operator_id, entity_id FROM entity_states WHERE operator_id = ANY(CAST(? AS uuid[])) AND updated_at >= ?
       ) changed
     ) numbered WHERE n <= ?`,
    [operators, from, operators, from, max + 1],
  );
  const overflow = new Set(result.rows.filter((row) => Number(row.n) > max).map((row) => row.operator_id));
  return { rows: result.rows.filter((row) => !overflow.has(row.operator_id)), overflow };
}

/**
 * Players with an event, or their registration, on a day of the audience's time bands since it was last judged; null
 * past {@link AUDIENCE_CANDIDATES_MAX} (the audience is judged whole).
 */
async function bandPlayers(db: Db, audience: AudienceRow, today: string, max: number): Promise<string[] | null> {
  const bands = timeBands(AudienceDefinitionSchema.parse(audience.definition));
  if (bands.length === 0 || !audience.evaluated_day || audience.evaluated_day >= today) return [];
  const ids = new Set<string>();
  for (const band of bands) {
    const range = [audience.evaluated_day, band.from, today, band.to];
    const result = await db.raw<{ rows: Array<{ entity_id: string }> }>(
      `SELECT entity_id FROM entity_events
        WHERE operator_id = ? AND occurred_at >= (CAST(? AS date) - CAST(? AS int))::timestamp AT TIME ZONE 'UTC'
          AND occurred_at < (CAST(? AS date) - CAST(? AS int) + 1)::timestamp AT TIME ZONE 'UTC'
       UNION
       SELECT id FROM entities
        WHERE operator_id = ? AND entity_type = 'player' AND created_at >= (CAST(? AS date) - CAST(? AS int))::timestamp AT TIME ZONE 'UTC'
          AND created_at < (CAST(? AS date) - CAST(? AS int) + 1)::timestamp AT TIME ZONE 'UTC'
       LIMIT ?`,
      [audience.operator_id, ...range, audience.operator_id, ...range, max + 1 - ids.size],
    );
    for (const row of result.rows) ids.add(row.entity_id);
    if (ids.size > max) return null;
  }
  return [...ids];
}

/**
 * One audience pass (docs/analytics.md "Audiences"): re-judges, for every saved audience, the players whose data
 * changed since the last pass — events read from the pass's own cursor, entity and state writes since its last time —
 * plus, on a new UTC day, the players the calendar alone can move (`timeBands`), and a new or edited definition over
 * every player. Each evaluation is one transaction applying the difference with its outbox events; the cursor moves
 * only after every audience is judged, never back, so a crash or an overlapping pass re-judges players, and a re-judged
 * player who is already a member does not enter again.
 */
export async function runAudiencePass(db: Db, options: { today?: string; maxEvents?: number; maxCandidates?: number } = {}): Promise<AudiencePassResult> {
  const result: AudiencePassResult = { events: 0, evaluations: 0, entered: 0, exited: 0, complete: true, failed: 0 };
  const audiences = (await db('audiences')
    .orderBy('id')
    .select(
      'id',
      'operator_id',
      'definition',
      'version',
      'evaluated_version',
      db.raw(`to_char(evaluated_day, 'YYYY-MM-DD') AS evaluated_day`),
    )) as AudienceRow[];
  const operators = [...new Set(audiences.map((audience) => audience.operator_id))];
  const limit = options.maxEvents ?? AUDIENCE_PASS_EVENTS;
  const changes = await changedByEvents(db, limit);
  const today = options.today ?? changes.snap.at.toISOString().slice(0, 10);
  result.events = changes.rows.length;
  result.complete = changes.rows.length < limit;
  const changed = new Map<string, Set<string>>();
  const maxCandidates = options.maxCandidates ?? AUDIENCE_CANDIDATES_MAX;
  const writes = await changedByWrites(db, operators, changes.since, maxCandidates);
  for (const row of [...changes.rows, ...writes.rows]) {
    const players = changed.get(row.operator_id) ?? new Set<string>();
    changed.set(row.operator_id, players.add(row.entity_id));
  }
  const currencies = new Map<string, string>();
  for (const audience of audiences) {
    if (!currencies.has(audience.operator_id)) currencies.set(audience.operator_id, (await getSettings(db, audience.operator_id)).reportingCurrency);
    const scope = { audienceId: audience.id, operatorId: audience.operator_id, reportingCurrency: currencies.get(audience.operator_id)!, today };
    const outcomes: Array<Awaited<ReturnType<typeof evaluateAudience>>> = [];
    try {
      const banded =
        audience.evaluated_version === audience.version && !writes.overflow.has(audience.operator_id)
          ? await bandPlayers(db, audience, today, maxCandidates)
          : null;
      if (banded === null) outcomes.push(await evaluateAudience(db, { ...scope, candidates: null }));
      else {
        const candidates = [...new Set([...(changed.get(audience.operator_id) ?? []), ...banded])];
        const steps = chunks(candidates, AUDIENCE_CANDIDATES_PER_STEP);
        // A new day with nobody to re-judge still records the day's size.
        if (steps.length === 0 && audience.evaluated_day !== today) steps.push([]);
        for (const step of steps) outcomes.push(await evaluateAudience(db, { ...scope, candidates: step }));
      }
    } catch {
      // One audience failing must not hold every operator's audiences at the cursor: it is judged whole next pass
      // (an evaluated version not its own, never null: a whole judgement with entered/exited events, not a silent baseline).
      result.failed += 1;
      await db('audiences')
        .where({ id: audience.id, operator_id: audience.operator_id, version: audience.version })
        .update({ evaluated_version: audience.version - 1 })
        .catch(() => undefined);
    }
    for (const outcome of outcomes) {
      if (!outcome) continue;
      result.evaluations += 1;
      result.entered += outcome.entered;
      result.exited += outcome.exited;
    }
  }
  await db.raw(
    `UPDATE audience_pass_state SET
       cursor_xid = CASE WHEN (CAST(? AS bigint), CAST(? AS text)) > (cursor_xid, cursor_id) THEN CAST(? AS bigint) ELSE cursor_xid END,
       cursor_id = CASE WHEN (CAST(? AS bigint), CAST(? AS text)) > (cursor_xid, cursor_id) THEN CAST(? AS text) ELSE cursor_id END,
       changed_since = greatest(changed_since, ?)
     WHERE id = 1`,
    changes.cursor
      ? [changes.cursor.xid, changes.cursor.id, changes.cursor.xid, changes.cursor.xid, changes.cursor.id, changes.cursor.id, changes.snap.at]
      : ['0', '', '0', '0', '', '', changes.snap.at],
  );
  return result;
}
