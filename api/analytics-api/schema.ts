import { z } from 'zod';
import '../openapi/registry';

const range = z.string().min(1).max(50).optional().openapi({ description: '7d, 14d, 30d, 90d or <start>:<end> ISO dates (UTC days, inclusive); default 30d' });
const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code').optional().openapi({ description: "ISO 4217; default the settings' reportingCurrency" });
const format = z.enum(['json', 'csv']).optional().openapi({ description: 'csv is an export (rate class analytics:export)' });
const integer = (min: number, max: number, fallback: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max)).optional().transform((value) => value ?? fallback)
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
export const PlayerParams = z.object({ id: z.string().min(1).max(255) });
export const GamesQuery = z.object({ limit: integer(1, 100, 50), offset: integer(0, 1_000_000, 0), range, currency, format });
export const ProvidersQuery = z.object({ currency });
