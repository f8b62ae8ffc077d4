import { z } from 'zod';

/**
 * An operator's responsible-gambling settings (docs/compliance.md "Responsible-gambling gate"). The exclusion rule
 * (self-exclusion, cooling-off, an excluded player) is not among the switches anyone may turn off: `rules.exclusion`
 * exists only so a request that sends `false` can be refused by name (commands/compliance/settings.ts).
 */
const hour = z.number().int().min(0).max(23);
const positive = z.number().int().positive();

export const QuietHours = z
  .object({
    jurisdiction: z.string().min(1).max(20),
    /** UTC hours: marketing is suppressed from `from` (inclusive) to `to` (exclusive), across midnight when `from > to`. */
    from: hour,
    to: hour,
  })
  .strict();

export const ComplianceSettingsSchema = z
  .object({
    rules: z
      .object({
        exclusion: z.boolean().default(true),
        consent: z.boolean().default(true),
        harmIndicators: z.boolean().default(true),
        depositLimit: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    /** When true a channel whose consent flag is not recorded counts as not consenting (opt-in); otherwise only `false` does. */
    explicitConsent: z.boolean().default(false),
    quietHours: z.array(QuietHours).max(50).default([]),
    /** The trailing window `rules.depositLimit` sums completed deposits over, against `compliance.depositLimit`. */
    depositLimitHours: positive.max(24 * 31).default(24),
    harm: z
      .object({
        depositVelocity: z
          .object({
            deposits: positive.max(1000).default(5),
            /** Minor units; null: the count alone decides. */
            amount: positive.nullable().default(null),
            windowMinutes: positive.max(7 * 24 * 60).default(60),
          })
          .strict()
          .prefault({}),
        depositAfterReversedWithdrawal: z
          .object({ windowMinutes: positive.max(7 * 24 * 60).default(30) })
          .strict()
          .prefault({}),
        /** How long after an indicator fired its player counts as at risk for the gate. */
        atRiskDays: positive.max(365).default(30),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type ComplianceSettingsInput = z.input<typeof ComplianceSettingsSchema>;
export type ComplianceSettings = z.output<typeof ComplianceSettingsSchema> & { rules: { exclusion: true } };

/** The settings an operator who never saved any runs with. */
export const DEFAULT_COMPLIANCE_SETTINGS = ComplianceSettingsSchema.parse({}) as ComplianceSettings;

/** Stored settings read back through the schema, so a document saved before a field existed gets its default. */
export function complianceSettingsOf(stored: unknown): ComplianceSettings {
  const parsed = ComplianceSettingsSchema.safeParse(stored ?? {});
  const settings = parsed.success ? parsed.data : DEFAULT_COMPLIANCE_SETTINGS;
  return { ...settings, rules: { ...settings.rules, exclusion: true } };
}
