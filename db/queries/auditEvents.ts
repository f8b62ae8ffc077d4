import type { Knex } from 'knex';
import type { AuditAction, AuditActorKind, AuditTargetType } from '../../core/audit';
import type { Db } from '../knex';

type Runner = Db | Knex.Transaction;

export interface AuditEventRow {
  operator_id: string;
  id: string;
  occurred_at: Date;
  actor_kind: AuditActorKind;
  actor_id: string;
  action: AuditAction;
  target_type: AuditTargetType;
  target_id: string;
  before_hash: string | null;
  after_hash: string | null;
  changed_fields: string[];
  summary: string;
  /** `occurred_at` at full precision (a JS Date keeps milliseconds), for the keyset cursor. */
  occurred_key: string;
}

export interface NewAuditEvent {
  operatorId: string;
  id: string;
  actorKind: AuditActorKind;
  actorId: string;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  beforeHash: string | null;
  afterHash: string | null;
  changedFields: string[];
  summary: string;
}

/** Appends one event; run inside the transaction of the change it records, so neither exists without the other. */
export async function insertAuditEvent(db: Runner, event: NewAuditEvent): Promise<void> {
  await db('audit_events').insert({
    operator_id: event.operatorId,
    id: event.id,
    actor_kind: event.actorKind,
    actor_id: event.actorId,
    action: event.action,
    target_type: event.targetType,
    target_id: event.targetId,
    before_hash: event.beforeHash,
    after_hash: event.afterHash,
    changed_fields: event.changedFields,
    summary: event.summary,
  });
}

/** What a listing narrows an operator's events to; every part optional, all together (AND). */
export interface AuditFilter {
  action?: AuditAction;
  actor?: { kind: AuditActorKind; id: string };
  targetType?: AuditTargetType;
  targetId?: string;
  /** `occurred_at` from (inclusive) and to (exclusive). */
  from?: Date;
  to?: Date;
}

/** Where a page starts: after `offset` events, or after the event a previous page ended on (keyset). */
export type AuditPageStart = { offset: number } | { after: { occurredAt: string; id: string } };

function filtered(db: Runner, operatorId: string, filter: AuditFilter): Knex.QueryBuilder {
  const query = db('audit_events').where('operator_id', operatorId);
  if (filter.action) query.where('action', filter.action);
  if (filter.actor) query.where({ actor_kind: filter.actor.kind, actor_id: filter.actor.id });
  if (filter.targetType) query.where('target_type', filter.targetType);
  if (filter.targetId) query.where('target_id', filter.targetId);
  if (filter.from) query.where('occurred_at', '>=', filter.from);
  if (filter.to) query.where('occurred_at', '<', filter.to);
  return query;
}

const COLUMNS = [
  'operator_id',
  'id',
  'occurred_at',
  'actor_kind',
  'actor_id',
  'action',
  'target_type',
  'target_id',
  'before_hash',
  'after_hash',
  'changed_fields',
  'summary',
];

function pageQuery(db: Runner, operatorId: string, filter: AuditFilter, limit: number, start: AuditPageStart): Knex.QueryBuilder {
  const query = filtered(db, operatorId, filter)
    .select(COLUMNS)
    .select(db.raw(`to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_key`))
    .orderBy([
      { column: 'occurred_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  if ('after' in start) query.whereRaw('(occurred_at, id) < (?::timestamptz, ?)', [start.after.occurredAt, start.after.id]);
  else query.offset(start.offset);
  return query;
}

/** How many of the operator's events the filter matches. */
export async function countAuditEvents(db: Runner, operatorId: string, filter: AuditFilter): Promise<number> {
  const [row] = await filtered(db, operatorId, filter).count<{ count: string }[]>({ count: '*' });
  return Number(row?.count ?? 0);
}

/** A page of the operator's events, newest first, with the total the filter matches and whether more follow. */
export async function listAuditEvents(
  db: Runner,
  operatorId: string,
  filter: AuditFilter,
  page: { limit: number; start: AuditPageStart },
): Promise<{ rows: AuditEventRow[]; count: number; more: boolean }> {
  const [rows, count] = await Promise.all([
    pageQuery(db, operatorId, filter, page.limit + 1, page.start) as Promise<AuditEventRow[]>,
    countAuditEvents(db, operatorId, filter),
  ]);
  return { rows: rows.slice(0, page.limit), count, more: rows.length > page.limit };
}

/**
 * Every event the filter matches, newest first, read `batch` at a time on the keyset: an export holds one batch in
 * memory however long the period.
 */
export async function* eachAuditEvent(db: Runner, operatorId: string, filter: AuditFilter, batch = 500): AsyncGenerator<AuditEventRow> {
  let start: AuditPageStart = { offset: 0 };
  for (;;) {
    const rows = (await pageQuery(db, operatorId, filter, batch, start)) as AuditEventRow[];
    yield* rows;
    const last = rows[rows.length - 1];
    if (rows.length < batch || !last) return;
    start = { after: { occurredAt: last.occurred_key, id: last.id } };
  }
}
