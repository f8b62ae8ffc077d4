import { z } from 'zod';
import { registry } from '../openapi/registry';

const range = z.string().min(1).max(50).optional().openapi({ description: '7d, 14d, 30d, 90d or <start>:<end> ISO dates (UTC days, inclusive); default 30d' });
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code')
  .optional()
  .openapi({ description: "ISO 4217; default the settings' reportingCurrency" });
const format = z.enum(['json', 'csv']).optional().openapi({ description: 'csv is an export (rate class analytics:export)' });
/** A whole-number query parameter from `min` to `max`, `fallback` when absent. */
export const integer = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((value) => value ?? fallback)
    .openapi({ description: `A whole number from ${min} to ${max}; default ${fallback}` });

export const KpisQuery = z.object({ range, currency });
export const RevenueQuery = z.object({ period: z.enum(['daily', 'weekly', 'monthly']).default('daily'), range, currency, format });
export const PlayersQuery = z.object({
  entity_type: z.string().min(1).max(100),
  search: z.string().max(255).optional(),
  sort: z.enum(['created_at', 'updated_at', 'external_id']).default('created_at'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  limit: integer(1, 100, 50),
  offset: integer(0, 1_000_000, 0),
  format,
});
export const PlayerParams = z.object({ id: z.string().min(1).max(255).openapi({ description: 'external id' }) });
export const GamesQuery = z.object({ limit: integer(1, 100, 50), offset: integer(0, 1_000_000, 0), range, currency, format });
export const ProvidersQuery = z.object({ currency });

export const Kpis = registry.register(
  'AnalyticsKpis',
  z.object({
    total_players: z.number(),
    active_players_today: z.number(),
    total_ggr: z.number(),
    total_deposits: z.number(),
    total_withdrawals: z.number(),
    avg_deposit: z.number(),
  }),
);
export const RevenueRow = registry.register(
  'RevenueRow',
  z.object({ date: z.string(), total_ggr: z.number(), total_deposits: z.number(), depositing_players: z.number(), active_players: z.number() }),
);
export const PlayerItem = registry.register(
  'AnalyticsPlayer',
  z.object({
    id: z.string(),
    external_id: z.string(),
    entity_type: z.string(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);
export const PlayerDetail = registry.register(
  'AnalyticsPlayerDetail',
  PlayerItem.extend({
    states: z.array(z.object({ state_key: z.string(), value: z.unknown(), updated_at: z.string() })),
    recentEvents: z.array(z.object({ id: z.string(), event_type: z.string(), data: z.unknown(), created_at: z.string() })),
  }),
);
export const GameRow = registry.register(
  'GameRow',
  z.object({ game_name: z.string(), rounds: z.number(), ggr: z.number(), unique_players: z.number(), avg_bet: z.number() }),
);
export const ProviderRow = registry.register(
  'ProviderRow',
  z.object({
    provider: z.string(),
    volume: z.number(),
    total_amount: z.number().openapi({ description: 'Σ amount of every transaction with the provider (deposits, withdrawals, any status)' }),
    success_rate: z.number(),
    completed_deposit_amount: z.number().openapi({ description: 'Σ amount of completed deposits (minor units)' }),
    completed_withdrawal_amount: z.number().openapi({ description: 'Σ amount of completed withdrawals (minor units)' }),
  }),
);
