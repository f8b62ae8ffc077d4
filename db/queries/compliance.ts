import type { Knex } from 'knex';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

/** The stored settings document of an operator, or null when it never saved any (core/compliance/settings.ts reads it). */
export async function findComplianceSettings(db: Runner, operatorId: string): Promise<unknown> {
  const row = await db('compliance_settings').where({ operator_id: operatorId }).first('settings');
  return row?.settings ?? null;
}

export async function saveComplianceSettings(db: Runner, operatorId: string, settings: unknown): Promise<void> {
  const values = { settings: JSON.stringify(settings), updated_at: db.fn.now() };
  await db('compliance_settings')
    .insert({ operator_id: operatorId, ...values })
    .onConflict('operator_id')
    .merge(values);
}

export interface GateStateRow {
  entity_id: string | null;
  status: string | null;
  jurisdiction: string | null;
  compliance: unknown;
  consent: unknown;
  last_harm_at: Date | null;
  deposited: string | null;
}

/**
 * What the gate reads of one player, in one statement: the entity's status and jurisdiction, its `compliance` and
 * `consent` state values, when a harm indicator last fired, and (when `depositHours` is given) the completed
 * deposits over that many hours. Every column null when the player is unknown.
 */
export async function readGateState(db: Runner, operatorId: string, externalId: string, depositHours: number | null): Promise<GateStateRow> {
  const result = await db.raw<{ rows: GateStateRow[] }>(
    `WITH player AS (
       SELECT id, data FROM entities WHERE operator_id = :operatorId AND external_id = :externalId AND deleted_at IS NULL
     )
     SELECT p.id AS entity_id, p.data->>'status' AS status, p.data->>'jurisdiction' AS jurisdiction,
            (SELECT value FROM entity_states s WHERE s.operator_id = :operatorId AND s.entity_id = p.id AND s.state_key = 'compliance') AS compliance,
            (SELECT value FROM entity_states s WHERE s.operator_id = :operatorId AND s.entity_id = p.id AND s.state_key = 'consent') AS consent,
            (SELECT max(fired_at) FROM harm_indicators h WHERE h.operator_id = :operatorId AND h.entity_id = p.id) AS last_harm_at,
            CASE WHEN :depositHours::int IS NULL THEN NULL ELSE
              (SELECT coalesce(sum((e.data->>'amount')::numeric), 0) FROM entity_events e
                WHERE e.operator_id = :operatorId AND e.entity_id = p.id AND e.event_type = 'transaction'
                  AND e.created_at > now() - make_interval(hours => :depositHours::int)
                  AND e.occurred_at > now() - make_interval(hours => :depositHours::int)
                  AND e.data->>'type' = 'deposit' AND coalesce(e.data->>'status', 'completed') = 'completed')
            END AS deposited
       FROM (SELECT 1) one LEFT JOIN player p ON true`,
    { operatorId, externalId, depositHours },
  );
  return result.rows[0]!;
}

export interface EvidenceInput {
  operatorId: string;
  automationId: string;
  automationVersion: number;
  runId: string;
  nodeId: string;
  actionType: string;
  purpose: string;
  rule: string;
  playerId: string | null;
  stateHash: string;
}

export interface EvidenceRow {
  seq: string;
  recorded_at: Date;
  automation_id: string;
  automation_version: number;
  run_id: string;
  node_id: string;
  action_type: string;
  purpose: string;
  rule: string;
  player_id: string | null;
  state_hash: string;
}

const EVIDENCE_COLUMNS = [
  'seq',
  'recorded_at',
  'automation_id',
  'automation_version',
  'run_id',
  'node_id',
  'action_type',
  'purpose',
  'rule',
  'player_id',
  'state_hash',
];

/**
 * Appends the gate's decision for a run's step, once: a retried check finds the row already there and answers the
 * decision recorded first, so the step does what its evidence says.
 */
export async function recordEvidence(db: Runner, input: EvidenceInput): Promise<EvidenceRow> {
  const [inserted] = await db('marketing_evidence')
    .insert({
      operator_id: input.operatorId,
      automation_id: input.automationId,
      automation_version: input.automationVersion,
      run_id: input.runId,
      node_id: input.nodeId,
      action_type: input.actionType,
      purpose: input.purpose,
      rule: input.rule,
      player_id: input.playerId,
      state_hash: input.stateHash,
    })
    .onConflict(['operator_id', 'run_id', 'node_id'])
    .ignore()
    .returning(EVIDENCE_COLUMNS);
  if (inserted) return inserted as EvidenceRow;
  return db('marketing_evidence').where({ operator_id: input.operatorId, run_id: input.runId, node_id: input.nodeId }).first(EVIDENCE_COLUMNS);
}

/** One operator's evidence recorded in `[from, to)`, oldest first, at most `limit` rows. */
export async function listEvidence(db: Runner, operatorId: string, from: Date, to: Date, limit: number): Promise<EvidenceRow[]> {
  return db('marketing_evidence')
    .where('operator_id', operatorId)
    .where('recorded_at', '>=', from)
    .where('recorded_at', '<', to)
    .orderBy('seq')
    .limit(limit)
    .select(EVIDENCE_COLUMNS);
}

/** The stored value of a player's state, read in the writing transaction and locked so two writers audit in turn. */
export async function lockedStateValue(trx: Knex.Transaction, operatorId: string, externalId: string, stateKey: string): Promise<{ value: unknown } | null> {
  const row = await trx('entity_states as s')
    .join('entities as e', function () {
      this.on('e.id', 's.entity_id').andOn('e.operator_id', 's.operator_id');
    })
    .where({ 's.operator_id': operatorId, 'e.operator_id': operatorId, 'e.external_id': externalId, 's.state_key': stateKey })
    .forUpdate('s')
    .first('s.value');
  return row ? { value: row.value } : null;
}

export interface EvidenceFilter {
  playerId?: string;
  rule?: string;
  automationId?: string;
  from?: Date;
  to?: Date;
}

/** Where a page of evidence continues: the microsecond text of the last row's `recorded_at` and its `seq`. */
export interface EvidenceAfter {
  recordedAt: string;
  seq: string;
}

export type EvidencePageRow = EvidenceRow & { recorded_key: string };

/**
 * A page of one operator's evidence, newest first, keyset on `(recorded_at, seq)` so it stays stable while the gate
 * keeps recording; `limit` rows at most (the caller asks one more to know whether a next page exists).
 */
export async function pageEvidence(db: Runner, operatorId: string, filter: EvidenceFilter, limit: number, after?: EvidenceAfter): Promise<EvidencePageRow[]> {
  const query = db('marketing_evidence')
    .where('operator_id', operatorId)
    .select(EVIDENCE_COLUMNS)
    .select(db.raw(`to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_key`))
    .orderBy([
      { column: 'recorded_at', order: 'desc' },
      { column: 'seq', order: 'desc' },
    ])
    .limit(limit);
  if (filter.playerId !== undefined) query.where('player_id', filter.playerId);
  if (filter.rule !== undefined) query.where('rule', filter.rule);
  if (filter.automationId !== undefined) query.where('automation_id', filter.automationId);
  if (filter.from) query.where('recorded_at', '>=', filter.from);
  if (filter.to) query.where('recorded_at', '<', filter.to);
  if (after) query.whereRaw('(recorded_at, seq) < (?::timestamptz, ?::bigint)', [after.recordedAt, after.seq]);
  return query;
}

export interface HarmIndicatorRow {
  indicator: string;
  fired_at: Date;
  details: unknown;
}

/** A player's newest harm indicators (at most `limit`), by external id; none for an unknown or erased player. */
export async function listPlayerHarmIndicators(db: Runner, operatorId: string, externalId: string, limit: number): Promise<HarmIndicatorRow[]> {
  return db('harm_indicators as h')
    .join('entities as e', function () {
      this.on('e.id', 'h.entity_id').andOn('e.operator_id', 'h.operator_id');
    })
    .where({ 'h.operator_id': operatorId, 'e.operator_id': operatorId, 'e.external_id': externalId })
    .whereNull('e.deleted_at')
    .orderBy([
      { column: 'h.fired_at', order: 'desc' },
      { column: 'h.seq', order: 'desc' },
    ])
    .limit(limit)
    .select('h.indicator', 'h.fired_at', 'h.details');
}
