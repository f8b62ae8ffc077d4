import { z } from 'zod';

/**
 * A saved audience's definition (docs/analytics.md "Audiences"): a flat `all` or `any` list of predicates over a fixed
 * set of player figures and states, each with a fixed set of operators. JSON, never free text: the pass compiles it to
 * parameterised SQL (db/queries/audienceSql.ts), so no value of a definition is ever part of a statement's text.
 */
export const AUDIENCE_PREDICATES_MAX = 20;
/** The longest window or day count a predicate takes (about ten years). */
export const AUDIENCE_DAYS_MAX = 3_650;
/** Values an `in`/`not_in` list takes at most. */
export const AUDIENCE_LIST_MAX = 50;

export const COMPARISONS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'] as const;
export type Comparison = (typeof COMPARISONS)[number];

const days = z.number().int().min(0).max(AUDIENCE_DAYS_MAX);
const windowDays = z.number().int().min(1).max(AUDIENCE_DAYS_MAX);
const count = z.number().int().min(0).max(1_000_000_000);
const money = z.number().min(-1e15).max(1e15);
const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR');
const comparison = z.enum(COMPARISONS);
const countryCode = z.string().regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, 'must be an ISO 3166 code such as MT or GB-SCT');
const stateValue = z.union([z.string().max(200), z.number(), z.boolean()]);

const FtdDaysAgo = z
  .object({ field: z.literal('ftd_days_ago'), op: comparison, value: days })
  .strict()
  .describe('Whole UTC days since the first completed deposit ever (any currency); a player without one never matches');
const DepositCount = z
  .object({ field: z.literal('deposit_count'), op: comparison, value: count, days: windowDays.optional() })
  .strict()
  .describe('Completed deposits (any currency) in the last `days` UTC days, today included; all time without `days`');
const DepositAmount = z
  .object({ field: z.literal('deposit_amount'), op: comparison, value: money, currency, days: windowDays.optional() })
  .strict()
  .describe('Σ completed deposits in `currency` (minor units) in the last `days` UTC days; all time without `days`');
const LastActivityDaysAgo = z
  .object({ field: z.literal('last_activity_days_ago'), op: comparison, value: days })
  .strict()
  .describe('Whole UTC days since the last game round or completed deposit; since registration for a player never active');
const Ggr = z
  .object({ field: z.literal('ggr'), op: comparison, value: money, currency })
  .strict()
  .describe('GGR to date in `currency`: Σ bet − win of the player’s rounds (minor units)');
const State = z
  .object({
    field: z.literal('state'),
    key: z.string().min(1).max(100),
    op: z.enum([...COMPARISONS, 'in', 'not_in', 'exists', 'not_exists']),
    value: z.union([stateValue, z.array(stateValue).min(1).max(AUDIENCE_LIST_MAX)]).optional(),
  })
  .strict()
  .superRefine((predicate, context) => {
    const list = predicate.op === 'in' || predicate.op === 'not_in';
    const none = predicate.op === 'exists' || predicate.op === 'not_exists';
    if (none && predicate.value !== undefined) context.addIssue({ code: 'custom', path: ['value'], message: `must be absent with ${predicate.op}` });
    else if (!none && predicate.value === undefined) context.addIssue({ code: 'custom', path: ['value'], message: 'is required' });
    else if (list && !Array.isArray(predicate.value)) context.addIssue({ code: 'custom', path: ['value'], message: `must be a list with ${predicate.op}` });
    else if (!list && !none && Array.isArray(predicate.value))
      context.addIssue({ code: 'custom', path: ['value'], message: `must be one value with ${predicate.op}` });
    else if (['lt', 'lte', 'gt', 'gte'].includes(predicate.op) && typeof predicate.value !== 'number')
      context.addIssue({ code: 'custom', path: ['value'], message: `must be a number with ${predicate.op}` });
  })
  .describe('A state of the entity state store (`key`), compared as stored: ordering compares numbers only; `ne`/`not_in` include players without it');
const Country = z
  .object({ field: z.literal('country'), op: z.enum(['in', 'not_in']), value: z.array(countryCode).min(1).max(AUDIENCE_LIST_MAX) })
  .strict()
  .describe("The player's `country`, upper-cased; `not_in` includes players without one");

export const AudiencePredicateSchema = z.discriminatedUnion('field', [FtdDaysAgo, DepositCount, DepositAmount, LastActivityDaysAgo, Ggr, State, Country]);
export type AudiencePredicate = z.output<typeof AudiencePredicateSchema>;
export const AUDIENCE_FIELDS = ['ftd_days_ago', 'deposit_count', 'deposit_amount', 'last_activity_days_ago', 'ggr', 'state', 'country'] as const;

const predicates = z.array(AudiencePredicateSchema).min(1).max(AUDIENCE_PREDICATES_MAX);
/** Exactly one of `all` (every predicate holds) and `any` (at least one does); a flat list, no nesting. */
export const AudienceDefinitionSchema = z
  .object({ all: predicates.optional(), any: predicates.optional() })
  .strict()
  .superRefine((definition, context) => {
    if ((definition.all === undefined) === (definition.any === undefined))
      context.addIssue({ code: 'custom', path: ['all'], message: 'exactly one of all and any is required' });
  });
export type AudienceDefinition = z.output<typeof AudienceDefinitionSchema>;

/** The predicates and how they combine. */
export function predicatesOf(definition: AudienceDefinition): { combine: 'all' | 'any'; predicates: AudiencePredicate[] } {
  return definition.all ? { combine: 'all', predicates: definition.all } : { combine: 'any', predicates: definition.any ?? [] };
}

/**
 * Which players a new UTC day alone can move in or out: for each time-relative predicate, those with an event (or
 * their registration) on a day of the band `[lastDay − from, today − to]`. A figure "N days ago" crosses its threshold
 * only for a player whose dated event is N (or N + 1) days old; a deposit leaves an N-day window on day N after it.
 * Everyone else keeps their truth until their data changes, which the pass sees anyway.
 */
export function timeBands(definition: AudienceDefinition): Array<{ from: number; to: number }> {
  const bands = new Map<string, { from: number; to: number }>();
  for (const predicate of predicatesOf(definition).predicates) {
    let band: { from: number; to: number } | undefined;
    if (predicate.field === 'ftd_days_ago' || predicate.field === 'last_activity_days_ago') band = { from: predicate.value, to: predicate.value };
    else if ((predicate.field === 'deposit_count' || predicate.field === 'deposit_amount') && predicate.days !== undefined)
      band = { from: predicate.days - 1, to: predicate.days };
    if (band) bands.set(`${band.from}:${band.to}`, band);
  }
  return [...bands.values()];
}
