import { z } from 'zod';
import { lastDays } from '../../core/analyticsParams';
import { GATE_RULES } from '../../core/compliance/gate';
import { saferGamblingFigures } from '../../db/queries/analyticsSaferGambling';
import { HARM_INDICATORS } from '../../db/queries/harmIndicators';
import { registry } from '../openapi/registry';
import { rangeOf, readFigures } from './context';
import { analytics } from './area';

export const SaferGamblingQuery = z.object({
  range: z
    .string()
    .min(1)
    .max(50)
    .optional()
    .openapi({ description: '7d, 14d, 30d, 90d or <start>:<end> ISO dates (UTC days, inclusive) of the decisions and indicators; default 30d' }),
});

const count = (description: string) => z.number().int().openapi({ description });
const countsOf = <K extends string>(keys: readonly K[], what: string) =>
  z.object(Object.fromEntries(keys.map((key) => [key, count(`${what} ${key}`)])) as Record<K, z.ZodNumber>);

export const SaferGamblingSchema = registry.register(
  'SaferGamblingFigures',
  z.object({
    players: z
      .object({
        total: count('Live players (erased ones are not counted)'),
        self_excluded: count('Players whose compliance state has selfExcluded: true'),
        cooling_off: count('Players whose compliance state has coolingOff: true'),
        status_excluded: count('Players whose status is excluded'),
        protected: count('Players under at least one of the three above'),
        with_deposit_limit: count('Players whose compliance state has a depositLimit above 0'),
        with_session_limit: count('Players whose compliance state has a sessionLimit above 0'),
        with_any_limit: count('Players with either limit'),
      })
      .openapi({ description: 'Now, whatever the range: the compliance state and status as the gate reads them' }),
    marketing: z.object({
      decided: count('Marketing steps the responsible-gambling gate decided in the range'),
      performed: count('Of those, let through (rule allowed)'),
      suppressed: count('Of those, suppressed'),
      suppressed_by_rule: countsOf(GATE_RULES, 'Suppressed by the rule'),
    }),
    harm_indicators: z.object({
      fired: count('Harm indicators fired in the range'),
      players: count('Distinct players they fired for'),
      by_indicator: countsOf(HARM_INDICATORS, 'Fired:'),
    }),
  }),
);

export const SaferGamblingResponse = z.object({
  success: z.literal(true),
  data: z.object({ range: z.object({ start: z.string(), end: z.string() }), figures: SaferGamblingSchema }),
});

/** `GET /safer-gambling`: protected and limited players now; the gate's decisions and the harm indicators of `range`. */
export const saferGamblingHandler = analytics.handler({ input: { query: SaferGamblingQuery } }, async ({ deps, ctx, input: { query }, principal }) => {
  const range = rangeOf(query.range, lastDays(30, new Date()));
  const figures = await readFigures(deps, (db) => saferGamblingFigures(db, principal.operatorId, range));
  ctx.body = { success: true, data: { range, figures } };
});
