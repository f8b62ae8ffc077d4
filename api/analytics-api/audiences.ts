import { Readable } from 'node:stream';
import { z } from 'zod';
import { lastDays } from '../../core/analyticsParams';
import { AudienceDefinitionSchema } from '../../core/audienceDefinition';
import { AUDIENCES_PER_OPERATOR, changeAudience, createAudience, removeAudience, type AudienceOutcome } from '../../commands/analytics/audiences';
import { audienceMembers, audienceSizes, findAudience, listAudiences, type AudienceRow } from '../../db/queries/audiences';
import { exportPage } from '../../db/queries/audienceExport';
import { actorOf } from '../actor';
import { AppError } from '../errors';
import { registry } from '../openapi/registry';
import { integer } from './schema';
import { rangeOf, scopeOf } from './context';
import { analytics } from './area';

/** Rows one export streams at most; `X-Truncated: true` says members were left out. */
export const AUDIENCE_EXPORT_ROWS = 100_000;
const EXPORT_PAGE = 1_000;
/** The longest size history one request reads. */
export const AUDIENCE_SIZE_DAYS = 731;

export const AudienceBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    definition: AudienceDefinitionSchema.describe('Exactly one of `all` or `any`: 1 to 20 predicates (docs/analytics.md "Audiences")'),
  })
  .strict();
export const AudienceParams = z.object({ id: z.string().min(1).max(100).openapi({ description: 'The audience id (aud_…)' }) });
export const MembersQuery = z.object({ limit: integer(1, 100, 50), offset: integer(0, 1_000_000, 0) });
export const SizesQuery = z.object({
  range: z.string().min(1).max(50).optional().openapi({ description: '7d, 14d, 30d, 90d or <start>:<end> (UTC days); default 90d, at most 731 days' }),
});
export const ExportQuery = z.object({
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code')
    .optional()
    .openapi({ description: "The currency of the GGR column; default the settings' reportingCurrency" }),
});

export const AudienceSchema = registry.register(
  'Audience',
  z.object({
    id: z.string(),
    name: z.string(),
    definition: AudienceDefinitionSchema,
    version: z.number().int().openapi({ description: 'Moves with each change of the definition' }),
    size: z.number().int().openapi({ description: 'Members after the last pass' }),
    evaluated_at: z.string().nullable().openapi({ description: 'When the last pass judged it; null until the first' }),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);
export const AudienceResponse = z.object({ success: z.literal(true), data: AudienceSchema });
export const AudiencesResponse = z.object({ success: z.literal(true), data: z.object({ audiences: z.array(AudienceSchema), limit: z.number().int() }) });
export const MembersResponse = z.object({
  success: z.literal(true),
  data: z.object({
    members: z.array(z.object({ external_id: z.string(), entered_at: z.string() })),
    total: z.number().int(),
    has_more: z.boolean(),
  }),
});
export const SizesResponse = z.object({
  success: z.literal(true),
  data: z.object({
    range: z.object({ start: z.string(), end: z.string() }),
    sizes: z.array(
      z.object({
        day: z.string(),
        size: z.number().int().openapi({ description: 'Members after the day’s last pass' }),
        entered: z.number().int(),
        exited: z.number().int(),
      }),
    ),
  }),
});
export const DeletedResponse = z.object({ success: z.literal(true), data: z.object({ id: z.string(), deleted: z.literal(true) }) });

const present = (row: AudienceRow) => ({
  id: row.id,
  name: row.name,
  definition: AudienceDefinitionSchema.parse(row.definition),
  version: row.version,
  size: row.size,
  evaluated_at: row.evaluated_at?.toISOString() ?? null,
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const notFound = (id: string) => new AppError(404, 'NOT_FOUND', `No audience ${id}`);

function answer(outcome: AudienceOutcome, id: string): AudienceRow {
  if (outcome.ok) return outcome.audience;
  if (outcome.reason === 'limit') throw new AppError(409, 'AUDIENCE_LIMIT_REACHED', `At most ${AUDIENCES_PER_OPERATOR} audiences per operator`);
  throw notFound(id);
}

async function audienceOf(db: Parameters<typeof findAudience>[0], operatorId: string, id: string): Promise<AudienceRow> {
  const audience = await findAudience(db, operatorId, id);
  if (!audience) throw notFound(id);
  return audience;
}

export const listAudiencesHandler = analytics.handler({}, async ({ deps, ctx, principal }) => {
  const audiences = await listAudiences(deps.db, principal.operatorId);
  ctx.body = { success: true, data: { audiences: audiences.map(present), limit: AUDIENCES_PER_OPERATOR } };
});

export const createAudienceHandler = analytics.handler({ input: { body: AudienceBody } }, async ({ deps, ctx, input: { body }, principal }) => {
  const outcome = await createAudience(deps, { operatorId: principal.operatorId, ...body, actor: actorOf(principal) });
  ctx.status = 201;
  ctx.body = { success: true, data: present(answer(outcome, '')) };
});

export const getAudienceHandler = analytics.handler({ input: { params: AudienceParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  ctx.body = { success: true, data: present(await audienceOf(deps.db, principal.operatorId, params.id)) };
});

export const updateAudienceHandler = analytics.handler(
  { input: { params: AudienceParams, body: AudienceBody } },
  async ({ deps, ctx, input: { params, body }, principal }) => {
    const outcome = await changeAudience(deps, { operatorId: principal.operatorId, id: params.id, ...body, actor: actorOf(principal) });
    ctx.body = { success: true, data: present(answer(outcome, params.id)) };
  },
);

export const deleteAudienceHandler = analytics.handler({ input: { params: AudienceParams } }, async ({ deps, ctx, input: { params }, principal }) => {
  answer(await removeAudience(deps, { operatorId: principal.operatorId, id: params.id, actor: actorOf(principal) }), params.id);
  ctx.body = { success: true, data: { id: params.id, deleted: true } };
});

export const membersHandler = analytics.handler(
  { input: { params: AudienceParams, query: MembersQuery } },
  async ({ deps, ctx, input: { params, query }, principal }) => {
    const audience = await audienceOf(deps.db, principal.operatorId, params.id);
    const members = await audienceMembers(deps.db, principal.operatorId, audience.id, query);
    ctx.body = {
      success: true,
      data: {
        members: members.map((member) => ({ external_id: member.external_id, entered_at: member.entered_at.toISOString() })),
        total: audience.size,
        has_more: query.offset + members.length < audience.size,
      },
    };
  },
);

export const sizesHandler = analytics.handler(
  { input: { params: AudienceParams, query: SizesQuery } },
  async ({ deps, ctx, input: { params, query }, principal }) => {
    const range = rangeOf(query.range, lastDays(90, new Date()));
    if (Date.parse(range.end) - Date.parse(range.start) >= AUDIENCE_SIZE_DAYS * 86_400_000)
      throw new AppError(400, 'INVALID_PARAM', `Invalid parameter: range: at most ${AUDIENCE_SIZE_DAYS} days`, {
        details: [{ field: 'range', message: `at most ${AUDIENCE_SIZE_DAYS} days` }],
      });
    const audience = await audienceOf(deps.db, principal.operatorId, params.id);
    ctx.body = { success: true, data: { range, sizes: await audienceSizes(deps.db, principal.operatorId, audience.id, range) } };
  },
);

/** A spreadsheet reads a cell starting with one of these as a formula: such a text cell gets a leading apostrophe. */
const textCell = (value: string): string => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};
export const EXPORT_COLUMNS = ['external_id', 'entered_at', 'ftd_day', 'deposit_count', 'last_activity_day', 'ggr', 'currency'];

export const exportHandler = analytics.handler(
  { input: { params: AudienceParams, query: ExportQuery } },
  async ({ deps, ctx, input: { params, query }, principal }) => {
    const audience = await audienceOf(deps.db, principal.operatorId, params.id);
    const scope = await scopeOf(deps, ctx, query.currency);
    const exportScope = { operatorId: scope.operatorId, audienceId: audience.id, currency: scope.currency, reportingCurrency: scope.reportingCurrency };
    async function* lines() {
      yield `${EXPORT_COLUMNS.join(',')}\n`;
      let after = '';
      let sent = 0;
      while (sent < AUDIENCE_EXPORT_ROWS) {
        const rows = await exportPage(deps.db, exportScope, after, Math.min(EXPORT_PAGE, AUDIENCE_EXPORT_ROWS - sent));
        if (rows.length === 0) return;
        sent += rows.length;
        after = rows.at(-1)!.entity_id;
        yield rows
          .map((row) =>
            [textCell(row.external_id), row.entered_at, row.ftd_day ?? '', row.deposit_count, row.last_activity_day ?? '', row.ggr, scope.currency].join(','),
          )
          .join('\n')
          .concat('\n');
      }
    }
    ctx.set('Content-Disposition', `attachment; filename="audience-${audience.id}.csv"`);
    ctx.set('X-Truncated', String(audience.size > AUDIENCE_EXPORT_ROWS));
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = Readable.from(lines());
  },
);
