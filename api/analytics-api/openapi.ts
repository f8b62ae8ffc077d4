import { z } from 'zod';
import { bearerApiKey, bearerSession, CodedError, jsonContent, registry } from '../openapi/registry';

const security = [{ [bearerApiKey.name]: [] }, { [bearerSession.name]: [] }];
const path = (suffix: string) => `/analytics-api/analytics${suffix}`;
const errors = (extra: Record<number, string> = {}) => ({
  400: jsonContent(CodedError, 'INVALID_PARAM (or MISSING_FILTER on /players)'),
  401: jsonContent(CodedError, 'UNAUTHORIZED'),
  429: jsonContent(CodedError, 'RATE_LIMITED (Retry-After header)'),
  ...Object.fromEntries(Object.entries(extra).map(([status, description]) => [status, jsonContent(CodedError, description)])),
  500: jsonContent(CodedError, 'INTERNAL_ERROR'),
});
const csv = (description: string) => ({ description, content: { 'application/json': { schema: z.unknown() }, 'text/csv': { schema: z.string() } } });

const range = z.string().optional().openapi({ description: '7d, 14d, 30d, 90d or <start>:<end> ISO dates (UTC days, inclusive)' });
const currency = z.string().optional().openapi({ description: "ISO 4217; default the settings' reportingCurrency" });
const format = z.enum(['json', 'csv']).optional().openapi({ description: 'csv is an export (5/min)' });
const page = { limit: z.number().int().min(1).max(100).optional(), offset: z.number().int().min(0).optional() };
const refreshedAt = z.string().nullable();
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
  method: 'get', path: path('/kpis'), summary: 'Headline KPIs', security, request: { query: z.object({ range, currency }) },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.object({ kpis: Kpis, currency: z.string(), range: Range, refreshed_at: refreshedAt }) }), 'KPIs'), ...errors() },
});
registry.registerPath({
  method: 'get', path: path('/revenue'), summary: 'Revenue per day, week or month', security,
  request: { query: z.object({ period: z.enum(['daily', 'weekly', 'monthly']).optional(), range, currency, format }) },
  responses: { 200: csv('`{ success, data: { period, currency, range, rows: [RevenueRow], refreshed_at }, truncated }` or CSV'), ...errors() },
});
registry.registerPath({
  method: 'get', path: path('/players'), summary: 'List players (PII stays encrypted)', security,
  request: { query: z.object({ entity_type: z.string(), search: z.string().optional(), sort: z.enum(['created_at', 'updated_at', 'external_id']).optional(), direction: z.enum(['asc', 'desc']).optional(), ...page, format }) },
  responses: { 200: csv('`{ success, data: { players: [AnalyticsPlayer], total, has_more }, truncated }` or CSV'), ...errors() },
});
registry.registerPath({
  method: 'get', path: path('/players/{id}'), summary: 'One player with decrypted PII, states and recent events', security,
  request: { params: z.object({ id: z.string().openapi({ description: 'external id' }) }) },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: PlayerDetail }), 'Player'), ...errors({ 404: 'NOT_FOUND' }) },
});
registry.registerPath({
  method: 'get', path: path('/games'), summary: 'Game rows', security, request: { query: z.object({ ...page, range, currency, format }) },
  responses: { 200: csv('`{ success, data: { games: [GameRow], currency, refreshed_at }, truncated }` or CSV'), ...errors() },
});
registry.registerPath({
  method: 'get', path: path('/providers'), summary: 'Payment provider rows', security, request: { query: z.object({ currency }) },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.object({ providers: z.array(ProviderRow), currency: z.string(), refreshed_at: refreshedAt }) }), 'Providers'), ...errors() },
});
registry.registerPath({
  method: 'post', path: path('/refresh'), summary: 'Refresh the aggregate views now', security,
  responses: { 200: jsonContent(z.object({ success: z.literal(true), message: z.literal('Views refreshed'), refreshed_at: z.string() }), 'Refreshed'), ...errors() },
});
