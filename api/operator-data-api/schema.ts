import { z } from 'zod';
import { jsonObject } from '../jsonObject';
import { registry } from '../openapi/registry';

const externalId = z.string().min(1).max(255);
const eventData = jsonObject.openapi({
  description:
    "The event's payload. `timestamp`, when present, is when the event occurred (spec 2.13): an ISO 8601 date or a date and time with a zone (Z or ±hh:mm), any age, at most 5 minutes ahead of the server's clock (else 400 VALIDATION_FAILED naming data.timestamp); analytics date the event by it. Without it the event occurred when it arrived.",
});

export const ExternalIdParams = z.object({ externalId });
export const StateParams = z.object({ externalId, key: z.string().min(1).max(100) });
export const JobParams = z.object({ jobId: z.string().min(1).max(100) });

export const EntityBody = z.object({ entityType: z.string().min(1).max(100), externalId, data: jsonObject });
export const EventBody = z.object({ eventType: z.string().min(1).max(100), data: eventData });

export const EventsQuery = z.object({
  type: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const RetentionWindow = z
  .object({
    hot_days: z.number().int().min(30, 'must be at least 30'),
    archive_days: z.number().int().max(1825, 'must be at most 1825').positive(),
  })
  .strict()
  .refine((window) => window.hot_days <= window.archive_days, { message: 'must not exceed archive_days', path: ['hot_days'] });

export const SettingsBody = z
  .object({
    templateId: z.string().min(1).max(100).optional(),
    dataRetentionDays: z.number().int().positive().max(36500).nullable().optional(),
    retentionPolicy: z.object({ entity_events: RetentionWindow.optional(), entity_states: RetentionWindow.optional() }).strict().nullable().optional(),
    reportingCurrency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code')
      .optional(),
    churnDays: z.number().int().min(1, 'must be at least 1').max(365, 'must be at most 365').optional(),
  })
  .strict();

export const IDEMPOTENCY_KEY = z.string().min(1).max(255);

/** Batch limits of spec 8. */
export const BATCH_LIMITS = { entities: 1000, events: 5000, states: 1000 } as const;

export const BatchEntityItem = z.object({ entityType: z.string(), externalId: z.string(), data: jsonObject });
export const BatchEventItem = z.object({ externalId: z.string(), eventType: z.string(), data: eventData });
export const BatchStateItem = z.object({ externalId: z.string(), stateKey: z.string(), value: z.unknown() });

export const Template = registry.register(
  'Template',
  z.object({
    id: z.string(),
    name: z.string(),
    version: z.string(),
    schema: z.object({
      entity_types: z.record(z.string(), z.object({ required: z.array(z.string()), optional: z.array(z.string()) })),
      event_types: z.record(z.string(), z.object({ required: z.array(z.string()), optional: z.array(z.string()) })),
      state_keys: z.array(z.string()),
      pii_fields: z.record(z.string(), z.array(z.string())),
    }),
    created_at: z.string(),
  }),
);
const Window = z.object({ hot_days: z.number(), archive_days: z.number() });
export const Settings = registry.register(
  'Settings',
  z.object({
    template: z.object({ id: z.string(), name: z.string(), version: z.string() }).nullable(),
    dataRetentionDays: z.number().nullable(),
    retentionPolicy: z.object({ entity_events: Window.optional(), entity_states: Window.optional() }).nullable(),
    reportingCurrency: z.string(),
    churnDays: z
      .number()
      .int()
      .openapi({ description: 'Days without a round or a completed deposit after which a player is churned: the default of GET /cohorts' }),
  }),
);
export const Entity = registry.register(
  'Entity',
  z.object({
    id: z.string(),
    externalId: z.string(),
    entityType: z.string(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);
export const Event = registry.register(
  'EntityEvent',
  z.object({ id: z.string(), event_type: z.string(), data: z.record(z.string(), z.unknown()), created_at: z.string() }),
);
export const State = registry.register('EntityState', z.object({ state_key: z.string(), value: z.unknown(), updated_at: z.string() }));
export const Job = registry.register(
  'BatchJob',
  z.object({
    id: z.string(),
    type: z.string(),
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    progress: z.number(),
    output: z.object({
      succeeded: z.number(),
      failed: z.number(),
      errors: z.array(z.object({ index: z.number(), externalId: z.string().nullable(), code: z.string(), message: z.string() })),
    }),
    error: z.string().nullable(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
  }),
);
export const IdempotencyHeader = z.object({ 'Idempotency-Key': z.string().optional() });
