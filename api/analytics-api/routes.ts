import { z } from 'zod';
import type { AppDeps } from '../deps';
import { defaultValidationError } from '../middleware/validate';
import { jsonContent } from '../openapi/registry';
import { codedErrors } from '../openapi/responses';
import { BusinessResponse, businessHandler } from './business';
import { gamesHandler, providersHandler } from './catalog';
import { CohortsResponse, cohortsHandler } from './cohorts';
import { GameHealthResponse, gameHealthHandler } from './gameHealth';
import * as examples from './examples';
import { NgrDefinitionSaved, NgrDefinitionsResponse, getNgrDefinitionHandler, putNgrDefinitionHandler } from './ngr';
import { getPlayerHandler, listPlayersHandler } from './players';
import { SplitsResponse, splitsHandler } from './splits';
import { SaferGamblingResponse, saferGamblingHandler } from './saferGambling';
import { refreshHandler } from './refresh';
import { GameRow, Kpis, PlayerDetail, PlayerItem, ProviderRow, RevenueRow } from './schema';
import { kpisHandler, revenueHandler } from './summary';
import { analytics } from './area';
import './audienceRoutes';

const errors = (extra: Record<number, string> = {}) =>
  codedErrors(
    [400, 'INVALID_PARAM (or MISSING_FILTER on /players)'],
    [401, 'UNAUTHORIZED'],
    [429, 'RATE_LIMITED (Retry-After header)'],
    ...Object.entries(extra).map(([status, description]): [number, string] => [Number(status), description]),
    [500, 'INTERNAL_ERROR'],
  );
/** Every read of figures runs under the analytics statement timeout (docs/analytics.md "Statement timeout"). */
const TIMEOUT = { 503: 'QUERY_TIMEOUT (Retry-After header): a statement ran longer than ANALYTICS_STATEMENT_TIMEOUT_MS' };
/** JSON, or with `format=csv` a CSV export (header row first, `X-Truncated` says whether rows were cut at 1 MB). */
const jsonOrCsv = (schema: z.ZodType, description: string, example: unknown) => ({
  description,
  headers: z.object({ 'X-Truncated': z.enum(['true', 'false']).optional().openapi({ description: 'CSV only: rows were cut to stay within 1 MB' }) }),
  content: { 'application/json': { schema, example }, 'text/csv': { schema: z.string() } },
});
const listOf = (data: z.ZodRawShape) =>
  z.object({ success: z.literal(true), data: z.object(data), truncated: z.boolean().describe('true when rows were cut to stay within 1 MB') });
const refreshedAt = z.string().nullable().describe('When the aggregate views were last refreshed; null when served from the raw tables');
const Range = z.object({ start: z.string(), end: z.string() });

analytics.endpoint({
  method: 'get',
  path: '/kpis',
  summary: 'Headline KPIs',
  guards: ['reads'],
  responses: {
    200: jsonContent(
      z.object({ success: z.literal(true), data: z.object({ kpis: Kpis, currency: z.string(), range: Range, refreshed_at: refreshedAt }) }),
      'KPIs',
      examples.kpis,
    ),
    ...errors(TIMEOUT),
  },
  ...kpisHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/business',
  summary: 'Business figures: FTDs, conversion, deposits and withdrawals by status, GGR, ARPU and ARPPU, with the previous period',
  description:
    'One currency per request (never summed across currencies), dated by occurrence time; `previous` is the same number of days ending the day before `range.start`. Definitions: docs/analytics.md "Business figures".',
  guards: ['reads'],
  responses: { 200: jsonContent(BusinessResponse, 'Business figures of the range and the period before', examples.business), ...errors(TIMEOUT) },
  ...businessHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/cohorts',
  summary: 'FTD cohorts: players by the week or month of their first deposit, with D1/D7/D30 retention, GGR to date and churn',
  description:
    'One currency per request; a cohort holds the players whose first completed deposit ever (in any currency) fell in it and was in this currency, dated by occurrence time. Definitions: docs/analytics.md "Cohorts".',
  guards: ['reads'],
  responses: { 200: jsonContent(CohortsResponse, 'Cohorts of the range, empty ones included', examples.cohorts), ...errors(TIMEOUT) },
  ...cohortsHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/safer-gambling',
  summary: 'Safer-gambling figures: protected and limited players now, the gate’s marketing decisions and the harm indicators of the range',
  description: 'Definitions: docs/analytics.md "Safer gambling" and docs/compliance.md.',
  guards: ['reads'],
  responses: { 200: jsonContent(SaferGamblingResponse, 'Safer-gambling figures', examples.saferGambling), ...errors(TIMEOUT) },
  ...saferGamblingHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/game-health',
  summary: 'Game health: actual RTP, hold and cash vs bonus GGR per game or provider',
  description: 'One currency per request, dated by occurrence time; rows most staked first. Definitions: docs/analytics.md "Game health".',
  guards: ['reads'],
  responses: { 200: jsonContent(GameHealthResponse, 'Totals and a page of rows', examples.gameHealth), ...errors(TIMEOUT) },
  ...gameHealthHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/splits',
  summary: 'Figures by country, jurisdiction or currency: players, deposits, withdrawals, GGR and FTDs',
  description: 'Only code-shaped values form groups (ISO 3166, ISO 4217), everything else is `other`. Definitions: docs/analytics.md "Splits".',
  guards: ['reads'],
  responses: { 200: jsonContent(SplitsResponse, 'One row per group, most GGR first', examples.splits), ...errors(TIMEOUT) },
  ...splitsHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/ngr-definition',
  summary: 'The NGR definition: the version figures use now and the latest versions',
  guards: ['reads'],
  responses: { 200: jsonContent(NgrDefinitionsResponse, 'The definition and its versions', examples.ngrDefinitions), ...errors() },
  ...getNgrDefinitionHandler,
});
analytics.endpoint({
  method: 'put',
  path: '/ngr-definition',
  summary: 'Save a new version of the NGR definition: gaming tax per jurisdiction, the default rate, other deductions',
  description:
    'Every save is a new version (the figures name the version they used); none is rewritten. API keys, the Owner and Admins; a Member is 403. Recorded in the audit trail as `settings.updated`.',
  guards: ['manager', 'reads'],
  inputError: defaultValidationError,
  request: { body: { description: 'The definition', example: examples.ngrDefinitions.data.current.definition } },
  responses: {
    200: jsonContent(NgrDefinitionSaved, 'The version saved', { success: true, data: examples.ngrDefinitions.data.current }),
    ...codedErrors(
      [400, 'VALIDATION_FAILED naming the field'],
      [401, 'UNAUTHORIZED'],
      [403, 'FORBIDDEN: a Member'],
      [429, 'RATE_LIMITED (Retry-After header)'],
      [500, 'INTERNAL_ERROR'],
    ),
  },
  ...putNgrDefinitionHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/revenue',
  summary: 'Revenue per day, week or month',
  guards: ['reads'],
  responses: {
    200: jsonOrCsv(
      listOf({ period: z.enum(['daily', 'weekly', 'monthly']), currency: z.string(), range: Range, refreshed_at: refreshedAt, rows: z.array(RevenueRow) }),
      'Revenue rows',
      examples.revenue,
    ),
    ...errors(TIMEOUT),
  },
  ...revenueHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/players',
  summary: 'List players (PII stays encrypted)',
  guards: ['reads'],
  responses: {
    200: jsonOrCsv(listOf({ total: z.number().int(), has_more: z.boolean(), players: z.array(PlayerItem) }), 'A page of players', examples.players),
    ...errors(TIMEOUT),
  },
  ...listPlayersHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/players/:id',
  summary: 'One player with decrypted PII, states and recent events',
  guards: ['reads'],
  responses: {
    200: jsonContent(z.object({ success: z.literal(true), data: PlayerDetail }), 'Player', examples.playerDetail),
    ...errors({ 404: 'NOT_FOUND', ...TIMEOUT }),
  },
  ...getPlayerHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/games',
  summary: 'Game rows',
  guards: ['reads'],
  responses: {
    200: jsonOrCsv(listOf({ currency: z.string(), refreshed_at: refreshedAt, games: z.array(GameRow) }), 'Game rows', examples.games),
    ...errors(TIMEOUT),
  },
  ...gamesHandler,
});
analytics.endpoint({
  method: 'get',
  path: '/providers',
  summary: 'Payment provider rows',
  guards: ['reads'],
  responses: {
    200: jsonContent(
      z.object({ success: z.literal(true), data: z.object({ providers: z.array(ProviderRow), currency: z.string(), refreshed_at: refreshedAt }) }),
      'Providers',
      examples.providers,
    ),
    ...errors(TIMEOUT),
  },
  ...providersHandler,
});
analytics.endpoint({
  method: 'post',
  path: '/refresh',
  summary: 'Refresh the aggregate views now (rate class analytics:refresh)',
  guards: ['refresh'],
  responses: {
    200: jsonContent(z.object({ success: z.literal(true), message: z.literal('Views refreshed'), refreshed_at: z.string() }), 'Refreshed', examples.refreshed),
    ...errors(),
  },
  ...refreshHandler,
});

export const createAnalyticsRouter = (deps: AppDeps) => analytics.router(deps);
