import { z } from 'zod';
import { NgrDefinitionSchema } from '../../core/ngrDefinition';
import { ngrDefinitionVersions, saveNgrDefinition } from '../../commands/analytics/ngrDefinition';
import { actorOf } from '../actor';
import { registry } from '../openapi/registry';
import { analytics } from './area';

export const NgrDefinitionBody = NgrDefinitionSchema;

const money = (description: string) => z.number().openapi({ description: `${description} (minor units, 2 decimals)` });
export const NgrFiguresSchema = registry.register(
  'NgrFigures',
  z.object({
    ggr: money('Σ bet − win of the period'),
    bonus_cost: money('Σ amount of completed transactions of type bonus'),
    taxes: money('Σ of taxes_by_jurisdiction'),
    other_deductions: money('Σ of deductions'),
    ngr: money('ggr − bonus_cost − taxes − other_deductions'),
    taxes_by_jurisdiction: z.array(
      z.object({
        jurisdiction: z.string().openapi({ description: "A listed jurisdiction (upper case), or '' for players with none or an unlisted one" }),
        rate: z.number(),
        taxable: z.number().openapi({ description: 'GGR − bonus cost of its players, never below 0' }),
        tax: z.number(),
      }),
    ),
    deductions: z.array(z.object({ name: z.string(), rate: z.number(), amount: z.number().openapi({ description: 'rate × GGR, never below 0' }) })),
  }),
);

const DefinitionVersion = z.object({
  version: z.number().int(),
  definition: NgrDefinitionSchema,
  created_by: z.string().openapi({ description: 'member:<id> or key:<id>' }),
  created_at: z.string(),
});
export const NgrDefinitionVersionSchema = registry.register('NgrDefinitionVersion', DefinitionVersion);
export const NgrDefinitionsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    current: NgrDefinitionVersionSchema.nullable().openapi({
      description: 'The version NGR is computed with now; null: none saved (no taxes, no other deductions)',
    }),
    versions: z.array(NgrDefinitionVersionSchema).openapi({ description: 'Newest first, at most 50' }),
  }),
});
export const NgrDefinitionSaved = z.object({ success: z.literal(true), data: NgrDefinitionVersionSchema });

/** `GET /ngr-definition`: the current NGR definition and the latest versions. */
export const getNgrDefinitionHandler = analytics.handler({}, async ({ deps, ctx, principal }) => {
  const versions = await ngrDefinitionVersions(deps, principal.operatorId);
  ctx.body = { success: true, data: { current: versions[0] ?? null, versions } };
});

/** `PUT /ngr-definition`: saves the body as the next version (the figures use it from now on). */
export const putNgrDefinitionHandler = analytics.handler({ input: { body: NgrDefinitionBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  ctx.body = { success: true, data: await saveNgrDefinition(deps, { operatorId: principal.operatorId, definition: body, actor: actorOf(principal) }) };
});
