import { z } from 'zod';
import '../openapi/registry';
import { GATE_RULES } from '../../core/compliance/gate';
import { ComplianceSettingsSchema } from '../../core/compliance/settings';
import { MAX_EVIDENCE_PAGE, PLAYER_HARM_INDICATORS } from '../../commands/compliance/evidencePage';
import { keysetCursorParam } from '../keysetCursor';

/**
 * The body of `PUT /compliance/settings`: every field optional, left-out fields take their defaults. Built in core
 * before the OpenAPI extension is loaded, so it is documented inline rather than as a named component.
 */
export const ComplianceSettingsBody = ComplianceSettingsSchema;

export const ComplianceSettingsRecord = z
  .object({
    rules: z.object({
      exclusion: z.literal(true).describe('Always true: self-exclusion, cooling-off and excluded players are never marketed to'),
      consent: z.boolean(),
      harmIndicators: z.boolean(),
      depositLimit: z.boolean(),
    }),
    explicitConsent: z.boolean(),
    quietHours: z.array(z.object({ jurisdiction: z.string(), from: z.number().int(), to: z.number().int() })),
    depositLimitHours: z.number().int(),
    harm: z.object({
      depositVelocity: z.object({ deposits: z.number().int(), amount: z.number().int().nullable(), windowMinutes: z.number().int() }),
      depositAfterReversedWithdrawal: z.object({ windowMinutes: z.number().int() }),
      atRiskDays: z.number().int(),
    }),
  })
  .openapi('ComplianceSettings');

const instant = z.string().datetime({ offset: true });

export const EvidenceQuery = z
  .object({
    from: instant.describe('Start of the period (inclusive), ISO 8601'),
    to: instant.describe('End of the period (exclusive); at most 93 days after `from`'),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .strict();

export const EvidenceRecord = z
  .object({
    recorded_at: z.string(),
    workflow_id: z.string(),
    workflow_version: z.number().int(),
    run_id: z.string(),
    node_id: z.string(),
    action_type: z.string(),
    purpose: z.enum(['marketing', 'bonus']),
    rule: z.enum(['allowed', ...GATE_RULES]).describe('`allowed`: the step was performed; otherwise the rule that suppressed it'),
    player_id: z.string().nullable().describe("The player's external id; null for a run without a player"),
    state_hash: z.string().describe('SHA-256 (hex) of the stable JSON of `{ compliance, consent }` as read'),
  })
  .openapi('MarketingEvidence');

export const EvidenceExportBody = z
  .object({
    success: z.literal(true),
    data: z.array(EvidenceRecord),
    count: z.number().int(),
    truncated: z.boolean().describe('true when the period holds more than 10,000 rows: export a shorter one'),
  })
  .openapi('MarketingEvidenceExport');

/** The CSV export's columns, in order: the JSON record's fields. */
export const EVIDENCE_COLUMNS = Object.keys(EvidenceRecord.shape) as Array<keyof z.infer<typeof EvidenceRecord>>;

/** A whole number in [min, max], from a query string; one message for every way it can be wrong. */
const whole = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};
const instantFilter = z
  .string()
  .refine((value) => z.iso.datetime({ offset: true }).safeParse(value).success, 'must be an ISO 8601 date-time with a zone (2026-11-30T00:00:00Z)')
  .transform((value) => new Date(value));

/**
 * The evidence viewer's query: filters that combine (AND) and a keyset page, newest first. A bad filter is a 400
 * naming it; `cursor` only takes a previous page's `nextCursor`.
 */
export const EvidencePageQuery = z
  .strictObject(
    {
      playerId: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional().describe("The player's external id"),
      rule: z.enum(['allowed', ...GATE_RULES], { error: `must be one of allowed, ${GATE_RULES.join(', ')}` }).optional(),
      workflowId: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
      from: instantFilter.optional().describe('Recorded at or after (ISO 8601 with a zone)'),
      to: instantFilter.optional().describe('Recorded before (ISO 8601 with a zone)'),
      limit: whole(1, MAX_EVIDENCE_PAGE).default(50).describe(`Rows per page, 1 to ${MAX_EVIDENCE_PAGE}`),
      cursor: keysetCursorParam(/^\d{1,19}$/)
        .transform(({ at, id }) => ({ recordedAt: at, seq: id }))
        .optional()
        .describe("The previous page's `nextCursor`"),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `has unknown parameters: ${issue.keys.join(', ')}` : undefined) },
  )
  .superRefine((query, ctx) => {
    if (query.from && query.to && query.from >= query.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
  });

export const EvidencePageBody = z
  .object({
    success: z.literal(true),
    data: z.object({
      records: z.array(EvidenceRecord),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
    }),
  })
  .openapi('MarketingEvidencePage');

export const PlayerComplianceParams = z.object({ externalId: z.string().min(1).max(255) });

export const PlayerHarmBody = z
  .object({
    success: z.literal(true),
    data: z.object({
      playerId: z.string(),
      atRiskUntil: z
        .string()
        .nullable()
        .describe('Until when the gate counts the player at risk (newest indicator + `harm.atRiskDays`); null when not at risk'),
      indicators: z
        .array(z.object({ indicator: z.string(), firedAt: z.string(), details: z.unknown() }))
        .describe(`The newest ${PLAYER_HARM_INDICATORS} indicators fired for the player`),
    }),
  })
  .openapi('PlayerHarmIndicators');
