import { z } from 'zod';
import { bearerApiKey, bearerSession, CodedError, jsonContent, registry } from '../openapi/registry';
import * as examples from './examples';
import { GamesQuery, KpisQuery, PlayerParams, PlayersQuery, ProvidersQuery, RevenueQuery } from './schema';

const security = [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }];
const path = (suffix: string) => `/analytics-api/analytics${suffix}`;
const errors = (extra: Record<number, string> = {}) => ({
  400: jsonContent(CodedError, 'INVALID_PARAM (or MISSING_FILTER on /players)'),
  401: jsonContent(CodedError, 'UNAUTHORIZED'),
  429: jsonContent(CodedError, 'RATE_LIMITED (Retry-After header)'),
  ...Object.fromEntries(Object.entries(extra).map(([status, description]) => [status, jsonContent(CodedError, description)])),
  500: jsonContent(CodedError, 'INTERNAL_ERROR'),
});
/** JSON, or with `format=csv` a CSV export (header row first, `X-Truncated` says whether rows were cut at 1 MB). */
const jsonOrCsv = (schema: z.ZodType, description: string, example: unknown) => ({
  description,
  headers: z.object({ 'X-Truncated': z.enum(['true', 'false']).optional().openapi({ description: 'CSV only: rows were cut to stay within 1 MB' }) }),
  content: { 'application/json': { schema, example }, 'text/csv': { schema: z.string() } },
});
const listOf = (data: z.ZodRawShape) => z.object({ success: z.literal(true), data: z.object(data), truncated: z.boolean().describe('true when rows were cut to stay within 1 MB') });

const refreshedAt = z.string().nullable().describe('When the aggregate views were last refreshed; null when served from the raw tables');
const Range = z.object({ start: z.string(), end: z.string() });

const Kpis = registry.register('AnalyticsKpis', z.object({
  total_players: z.number(), active_players_today: z.number(), total_ggr: z.number(), total_deposits: z.number(), total_withdrawals: z.number(), avg_deposit: z.number(),
}));
const RevenueRow = registry.register('RevenueRow', z.object({ date: z.string(), total_ggr: z.number(), total_deposits: z.number(), depositing_players: z.number(), active_players: z.number() }));
const PlayerItem = registry.register('AnalyticsPlayer', z.object({
  id: z.string(), external_id: z.string(), entity_type: z.string(), data: z.record(z.string(), z.unknown()), created_at: z.string(), updated_at: z.string(),
}));
const PlayerDetail = registry.register('AnalyticsPlayerDetail', PlayerItem.extend({
  states: z.array(z.object({ state_key: z.string(), value: z.unknown(), updated_at: z.string() })),
  recentEvents: z.array(z.object({ id: z.string(), event_type: z.string(), data: z.unknown(), created_at: z.string() })),
}));
const GameRow = registry.register('GameRow', z.object({ game_name: z.string(), rounds: z.number(), ggr: z.number(), unique_players: z.number(), avg_bet: z.number() }));
const ProviderRow = registry.register('ProviderRow', z.object({ provider: z.string(), volume: z.number(), total_amount: z.number(), success_rate: z.number() }));

registry.registerPath({
  method: 'get', path: path('/kpis'), summary: 'Headline KPIs', security, request: { query: KpisQuery },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.object({ kpis: Kpis, currency: z.string(), range: Range, refreshed_at: refreshedAt }) }), 'KPIs', examples.kpis), ...errors() },
});
registry.registerPath({
  method: 'get', path: path('/revenue'), summary: 'Revenue per day, week or month', security, request: { query: RevenueQuery },
  responses: {
    200: jsonOrCsv(listOf({ period: z.enum(['daily', 'weekly', 'monthly']), currency: z.string(), range: Range, refreshed_at: refreshedAt, rows: z.array(RevenueRow) }), 'Revenue rows', examples.revenue),
    ...errors(),
  },
});
registry.registerPath({
  method: 'get', path: path('/players'), summary: 'List players (PII stays encrypted)', security, request: { query: PlayersQuery },
  responses: { 200: jsonOrCsv(listOf({ total: z.number().int(), has_more: z.boolean(), players: z.array(PlayerItem) }), 'A page of players', examples.players), ...errors() },
});
registry.registerPath({
  method: 'get', path: path('/players/{id}'), summary: 'One player with decrypted PII, states and recent events', security,
  request: { params: PlayerParams.extend({ id: PlayerParams.shape.id.openapi({ description: 'external id' }) }) },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: PlayerDetail }), 'Player', examples.playerDetail), ...errors({ 404: 'NOT_FOUND' }) },
});
registry.registerPath({
  method: 'get', path: path('/games'), summary: 'Game rows', security, request: { query: GamesQuery },
  responses: { 200: jsonOrCsv(listOf({ currency: z.string(), refreshed_at: refreshedAt, games: z.array(GameRow) }), 'Game rows', examples.games), ...errors() },
});
registry.registerPath({
  method: 'get', path: path('/providers'), summary: 'Payment provider rows', security, request: { query: ProvidersQuery },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.object({ providers: z.array(ProviderRow), currency: z.string(), refreshed_at: refreshedAt }) }), 'Providers', examples.providers), ...errors() },
});
registry.registerPath({
  method: 'post', path: path('/refresh'), summary: 'Refresh the aggregate views now (rate class analytics:refresh)', security,
  responses: { 200: jsonContent(z.object({ success: z.literal(true), message: z.literal('Views refreshed'), refreshed_at: z.string() }), 'Refreshed', examples.refreshed), ...errors() },
});
