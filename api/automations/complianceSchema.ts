import { z } from 'zod';
import '../openapi/registry';
import { GATE_RULES } from '../../core/compliance/gate';
import { ComplianceSettingsSchema } from '../../core/compliance/settings';

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
