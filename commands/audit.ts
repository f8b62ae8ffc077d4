import type { Knex } from 'knex';
import { auditHash, auditRecordOf, changedFields, parseActor, type Actor, type AuditAction, type AuditRecord, type AuditTargetType } from '../core/audit';
import { prefixedId } from '../core/ids';
import type { Db } from '../db/knex';
import { insertAuditEvent } from '../db/queries/auditEvents';

/**
 * Fields a record's hash leaves out because they move without anyone changing anything: a key's `last_used_at` is
 * written by its use. Documented in docs/compliance.md "Audit trail", so a hash can be recomputed from the row.
 */
const VOLATILE = ['last_used_at'];

/** Bookkeeping that every write moves: hashed with the record, never named as what changed. */
const BOOKKEEPING = ['updated_at'];

/** A stored row (or any object of its fields) as the trail hashes it. */
export const auditRecord = (row: object): AuditRecord => auditRecordOf(row, VOLATILE);

export interface AuditChange {
  operatorId: string;
  actor: Actor;
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** The record before the change; null when the change created it. */
  before: object | null;
  /** The record after the change; null when the change removed it. */
  after: object | null;
  /** A short non-secret addition to the summary (a version number, how many invites a new one replaced). */
  note?: string;
}

/**
 * Appends the audit event of a change, in the transaction `trx` that makes it (commands/* call it last, with the
 * records they read and wrote): the event commits or rolls back with the change. Only hashes of the records and the
 * names of the fields that differ are stored, never a value. An update that changed no field records nothing
 * (`false`), so re-saving the same thing leaves no noise.
 *
 * @example await recordAudit(trx, { operatorId, actor, action: 'connection.updated', target: { type: 'connection', id }, before, after })
 */
export async function recordAudit(trx: Knex.Transaction, change: AuditChange): Promise<boolean> {
  const actor = parseActor(change.actor);
  if (!actor) throw new Error(`audit: not an actor: ${change.actor.slice(0, 20)}`);
  const before = change.before ? auditRecord(change.before) : null;
  const after = change.after ? auditRecord(change.after) : null;
  const fields = before && after ? changedFields(before, after, BOOKKEEPING) : [];
  if (before && after && fields.length === 0) return false;
  const what = !before ? 'Created' : !after ? 'Removed' : `Changed ${fields.join(', ')}`;
  await insertAuditEvent(trx, {
    operatorId: change.operatorId,
    id: prefixedId('aud'),
    actorKind: actor.kind,
    actorId: actor.id,
    action: change.action,
    targetType: change.target.type,
    targetId: change.target.id,
    beforeHash: before ? auditHash(before) : null,
    afterHash: after ? auditHash(after) : null,
    changedFields: fields,
    summary: change.note ? `${what}; ${change.note}` : what,
  });
  return true;
}

export interface AuditAct {
  operatorId: string;
  actor: Actor;
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** What was done, in the clear: ids, counts and dates only, never a payload or a personal value. */
  record: Record<string, string | number | boolean | null>;
  summary: string;
}

/**
 * Appends the audit event of an act that changes no stored record of its own — a test run, a rerun, a replay, an
 * evidence export — after the act: its after-hash is the hash of `record` (what was started or exported), so the row
 * proves what was asked for without keeping a value. Its own transaction: the act (a Temporal start, a download) has
 * none to share.
 */
export async function recordAuditAct(db: Db | Knex.Transaction, act: AuditAct): Promise<void> {
  const actor = parseActor(act.actor);
  if (!actor) throw new Error(`audit: not an actor: ${act.actor.slice(0, 20)}`);
  await insertAuditEvent(db, {
    operatorId: act.operatorId,
    id: prefixedId('aud'),
    actorKind: actor.kind,
    actorId: actor.id,
    action: act.action,
    targetType: act.target.type,
    targetId: act.target.id,
    beforeHash: null,
    afterHash: auditHash(auditRecord(act.record)),
    changedFields: [],
    summary: act.summary,
  });
}
