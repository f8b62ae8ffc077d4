import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, parseActor } from '../../core/audit';
import { keysetCursorParam } from '../keysetCursor';

/** A whole number in [min, max], from a query string; one message for every way it can be wrong. */
const whole = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const instant = () =>
  z
    .string()
    .refine((value) => z.iso.datetime({ offset: true }).safeParse(value).success, 'must be an ISO 8601 date-time with a zone (2026-11-30T00:00:00Z)')
    .transform((value) => new Date(value));

/** The filters the listing and the export share; they combine (AND), and a bad one is a 400 naming it. */
const filters = {
  action: z.enum(AUDIT_ACTIONS, { error: `must be one of ${AUDIT_ACTIONS.join(', ')}` }).optional(),
  actor: z
    .string()
    .max(200)
    .transform((value, ctx) => {
      const actor = parseActor(value);
      if (!actor) {
        ctx.addIssue({ code: 'custom', message: 'must be member:<member id> or key:<API key id>' });
        return z.NEVER;
      }
      return actor;
    })
    .optional()
    .describe('`member:<member id>` or `key:<API key id>`'),
  targetType: z.enum(AUDIT_TARGET_TYPES, { error: `must be one of ${AUDIT_TARGET_TYPES.join(', ')}` }).optional(),
  targetId: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  from: instant().optional().describe('Occurred at or after (ISO 8601 with a zone)'),
  to: instant().optional().describe('Occurred before (ISO 8601 with a zone)'),
};

/** A parameter the endpoint does not know is refused by name, so a misspelt filter never silently matches everything. */
const unknownParams = {
  error: (issue: { code?: string; keys?: string[] }) => (issue.code === 'unrecognized_keys' ? `has unknown parameters: ${issue.keys?.join(', ')}` : undefined),
};

const inOrder = (query: { from?: Date; to?: Date }, ctx: z.RefinementCtx) => {
  if (query.from && query.to && query.from > query.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
};

/**
 * The listing's query: the filters and a page. `cursor` continues from a previous page's `nextCursor` (keyset: stable
 * while events are added); `offset` is kept for the `limit`/`offset` style of the other lists, and the two do not mix.
 */
export const AuditEventsQuery = z
  .strictObject(
    {
      ...filters,
      limit: whole(1, 200).default(50),
      offset: whole(0, 1_000_000).default(0),
      cursor: keysetCursorParam(/^aud_[0-9a-f]{32}$/)
        .transform(({ at, id }) => ({ occurredAt: at, id }))
        .optional(),
    },
    unknownParams,
  )
  .superRefine((query, ctx) => {
    inOrder(query, ctx);
    if (query.cursor && query.offset > 0) ctx.addIssue({ code: 'custom', path: ['offset'], message: 'cannot be combined with cursor' });
  });

/** The export's query: the listing's filters and a format. */
export const AuditExportQuery = z
  .strictObject({ ...filters, format: z.enum(['csv', 'json'], { error: 'must be csv or json' }).default('csv') }, unknownParams)
  .superRefine(inOrder);

/** An event as the trail stores it and exports carry it. */
const auditEventFields = z.object({
  id: z.string().describe('aud_…'),
  occurredAt: z.string(),
  actor: z
    .object({ kind: z.enum(['member', 'api_key']), id: z.string() })
    .describe('The member (a session or its dashboard credential) or the API key that made the change'),
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.enum(AUDIT_TARGET_TYPES),
  targetId: z.string().describe('The changed record; for settings and evidence, the organisation'),
  beforeHash: z.string().nullable().describe('SHA-256 hex of the record before, as stable JSON; null when the change created it'),
  afterHash: z.string().nullable().describe('SHA-256 hex of the record after; null when the change removed it'),
  changedFields: z.array(z.string()).describe('The names of the fields that changed (none for a creation or removal)'),
  summary: z.string().describe('What changed, without values'),
});

export const AuditExportedEvent = auditEventFields.openapi('AuditExportedEvent');

/** An event as the listing shows it: the stored event and its target's current name (not part of the trail). */
export const AuditEvent = auditEventFields
  .extend({
    targetName: z
      .string()
      .nullable()
      .describe(
        "The target's name where it has one (a workflow's, a member's display name or email, a key's label, a run's workflow's); null when it has none or is gone",
      ),
    targetDeleted: z.boolean().describe('The target (a run: its workflow) has been deleted since'),
  })
  .openapi('AuditEvent');
