import { z } from 'zod';
import type { AppDeps } from '../deps';
import type { Area } from '../endpoint';
import type { SessionPrincipal } from '../middleware/authenticate';
import { jsonContent } from '../openapi/registry';
import { teamError } from '../openapi/responses';
import { AUDIT_EXPORT_LIMIT, exportAuditEventsHandler, listAuditEventsHandler } from './audit';
import { auditEvents, auditExport } from './auditExamples';
import { AuditEvent, AuditExportedEvent } from './auditSchema';

const errors = {
  401: teamError('UNAUTHORIZED: no, invalid or revoked session, or an API key'),
  403: teamError('FORBIDDEN: not the Owner or an Admin'),
};

/**
 * The audit trail (docs/compliance.md "Audit trail") on team management, where who may do what is decided: Owners
 * and Admins read it with a session, a Member gets 403, an API key 401. `guards` are the area's session and
 * manager guards, in that order.
 */
export function declareAuditTrail<G extends string>(area: Area<AppDeps, G, SessionPrincipal>, guards: readonly G[]): void {
  area.endpoint({
    method: 'get',
    path: '/operators/me/audit-events',
    summary: "The organisation's audit trail, newest first, filtered and paged (Owner, Admin)",
    description:
      'Every change to workflows, API keys and their MCP settings, connections, connectors, members, invites and settings, with who made it (a member or an API key), when, and SHA-256 hashes of the record before and after — never a value. Filters combine. `count` is the total the filters match; `nextCursor` (present while more events follow) continues with `cursor`, stable while events are added; `offset` also works and does not mix with `cursor`.',
    guards,
    responses: {
      200: jsonContent(
        z.object({
          success: z.literal(true),
          data: z.object({ events: z.array(AuditEvent), count: z.number().int(), nextCursor: z.string().optional() }),
        }),
        'A page, the total count and the next page’s cursor',
        auditEvents,
      ),
      400: teamError('INVALID_INPUT: names each bad filter'),
      ...errors,
    },
    ...listAuditEventsHandler,
  });

  area.endpoint({
    method: 'get',
    path: '/operators/me/audit-events/export',
    summary: 'Download the audit events the filters match, as CSV (default) or JSON (Owner, Admin)',
    description: `The listing's filters; \`format\` csv or json. Streamed newest first, the period ending when the export starts. At most ${AUDIT_EXPORT_LIMIT} events per export: more is a 400 naming the count, to narrow with from and to. CSV columns: id, occurredAt, actorKind, actorId, action, targetType, targetId, beforeHash, afterHash, changedFields (space-separated), summary.`,
    guards,
    responses: {
      200: {
        description: 'The file (Content-Disposition: attachment); X-Event-Count says how many events it holds',
        headers: z.object({ 'X-Event-Count': z.string().openapi({ description: 'How many events the file holds' }) }),
        content: {
          'text/csv': { schema: z.string() },
          'application/json': {
            schema: z.object({ success: z.literal(true), data: z.object({ exportedAt: z.string(), events: z.array(AuditExportedEvent) }) }),
            example: auditExport,
          },
        },
      },
      400: teamError(`INVALID_INPUT: a bad filter, or more than ${AUDIT_EXPORT_LIMIT} events match`),
      ...errors,
    },
    ...exportAuditEventsHandler,
  });
}
