import { Readable } from 'node:stream';
import type { z } from 'zod';
import { countAuditEvents, eachAuditEvent, listAuditEvents, type AuditEventRow, type AuditFilter, type AuditPageStart } from '../../db/queries/auditEvents';
import { auditTargetNames, type AuditTargetName } from '../../db/queries/auditTargets';
import { AppError } from '../errors';
import { encodeKeysetCursor } from '../keysetCursor';
import { type AuditEvent, AuditEventsQuery, type AuditExportedEvent, AuditExportQuery } from './auditSchema';
import { team } from './area';

/** The most events one export holds: a longer period is refused with the count, to be narrowed with from/to. */
export const AUDIT_EXPORT_LIMIT = 100_000;

/** An event as exports carry it: the trail as stored, without the names a listing reads beside it (they change). */
export function toAuditEvent(row: AuditEventRow): z.infer<typeof AuditExportedEvent> {
  return {
    id: row.id,
    occurredAt: row.occurred_at.toISOString(),
    actor: { kind: row.actor_kind, id: row.actor_id },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    beforeHash: row.before_hash,
    afterHash: row.after_hash,
    changedFields: row.changed_fields,
    summary: row.summary,
  };
}

/** An event as the listing shows it: with its target's current name (db/queries/auditTargets.ts). */
function namedAuditEvent(row: AuditEventRow, names: Map<string, AuditTargetName>): z.infer<typeof AuditEvent> {
  const target = names.get(`${row.target_type}:${row.target_id}`);
  return { ...toAuditEvent(row), targetName: target?.name ?? null, targetDeleted: target?.deleted === true };
}

function filterOf(query: z.output<typeof AuditExportQuery> | z.output<typeof AuditEventsQuery>): AuditFilter {
  return {
    ...(query.action ? { action: query.action } : {}),
    ...(query.actor ? { actor: query.actor } : {}),
    ...(query.targetType ? { targetType: query.targetType } : {}),
    ...(query.targetId ? { targetId: query.targetId } : {}),
    ...(query.from ? { from: query.from } : {}),
    ...(query.to ? { to: query.to } : {}),
  };
}

/** `GET /operators/me/audit-events`: the organisation's audit trail, newest first, filtered and paged. */
export const listAuditEventsHandler = team.handler({ input: { query: AuditEventsQuery } }, async ({ deps, ctx, input: { query }, principal }) => {
  const start: AuditPageStart = query.cursor ? { after: query.cursor } : { offset: query.offset };
  const { rows, count, more } = await listAuditEvents(deps.db, principal.operatorId, filterOf(query), { limit: query.limit, start });
  const last = rows[rows.length - 1];
  const names = await auditTargetNames(
    deps.db,
    principal.operatorId,
    rows.map((row) => ({ type: row.target_type, id: row.target_id })),
  );
  ctx.body = {
    success: true,
    data: {
      events: rows.map((row) => namedAuditEvent(row, names)),
      count,
      ...(more && last ? { nextCursor: encodeKeysetCursor(last.occurred_key, last.id) } : {}),
    },
  };
});

export const CSV_COLUMNS = [
  'id',
  'occurredAt',
  'actorKind',
  'actorId',
  'action',
  'targetType',
  'targetId',
  'beforeHash',
  'afterHash',
  'changedFields',
  'summary',
];

/** A CSV cell, quoted when needed; a leading `= + - @` is escaped so a spreadsheet never runs a cell as a formula. */
function csvCell(value: string | null): string {
  const text = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvLine(row: AuditEventRow): string {
  const event = toAuditEvent(row);
  const cells = [
    event.id,
    event.occurredAt,
    event.actor.kind,
    event.actor.id,
    event.action,
    event.targetType,
    event.targetId,
    event.beforeHash,
    event.afterHash,
    event.changedFields.join(' '),
    event.summary,
  ];
  return `${cells.map(csvCell).join(',')}\n`;
}

async function* csvOf(rows: AsyncIterable<AuditEventRow>): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\n`;
  for await (const row of rows) yield csvLine(row);
}

async function* jsonOf(rows: AsyncIterable<AuditEventRow>, exportedAt: Date): AsyncGenerator<string> {
  yield `{"success":true,"data":{"exportedAt":${JSON.stringify(exportedAt.toISOString())},"events":[`;
  let first = true;
  for await (const row of rows) {
    yield `${first ? '' : ','}${JSON.stringify(toAuditEvent(row))}`;
    first = false;
  }
  yield ']}}\n';
}

/**
 * `GET /operators/me/audit-events/export`: the events the filters match as a CSV or JSON download, streamed from the
 * database in keyset batches. The period is fixed when the export starts (`to` defaults to now), and at most
 * `AUDIT_EXPORT_LIMIT` events go in one file: more is a 400 naming the count, before anything is sent.
 */
export const exportAuditEventsHandler = team.handler({ input: { query: AuditExportQuery } }, async ({ deps, ctx, input: { query }, principal }) => {
  const operatorId = principal.operatorId;
  const exportedAt = new Date();
  const filter = { ...filterOf(query), to: query.to && query.to < exportedAt ? query.to : exportedAt };
  const count = await countAuditEvents(deps.db, operatorId, filter);
  if (count > AUDIT_EXPORT_LIMIT) {
    throw new AppError(400, 'INVALID_INPUT', `Invalid input: ${count} events match, at most ${AUDIT_EXPORT_LIMIT} go in one export; narrow from and to`);
  }
  const rows = eachAuditEvent(deps.db, operatorId, filter);
  const stamp = exportedAt.toISOString().replace(/[:.]/g, '-');
  ctx.set('Content-Disposition', `attachment; filename="audit-events-${stamp}.${query.format}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Event-Count', String(count));
  ctx.type = query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
  ctx.body = Readable.from(query.format === 'csv' ? csvOf(rows) : jsonOf(rows, exportedAt));
});
