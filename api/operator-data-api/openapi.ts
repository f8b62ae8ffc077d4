import { z } from 'zod';
import { bearerApiKey, CodedError, jsonContent, registry } from '../openapi/registry';
import * as examples from './examples';
import { BatchEntityItem, BatchEventItem, BatchStateItem, EntityBody, EventBody, EventsQuery, ExternalIdParams, JobParams, SettingsBody, StateParams } from './schema';

const security = [{ [bearerApiKey.name]: [] }];
const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
const errors = (...codes: Array<[number, string]>) => ({
  401: jsonContent(CodedError, 'UNAUTHORIZED: missing or invalid API key'),
  ...Object.fromEntries(codes.map(([status, description]) => [status, jsonContent(CodedError, description)])),
  500: jsonContent(CodedError, 'INTERNAL_ERROR'),
});

const Template = registry.register('Template', z.object({
  id: z.string(), name: z.string(), version: z.string(),
  schema: z.object({
    entity_types: z.record(z.string(), z.object({ required: z.array(z.string()), optional: z.array(z.string()) })),
    event_types: z.record(z.string(), z.object({ required: z.array(z.string()), optional: z.array(z.string()) })),
    state_keys: z.array(z.string()),
    pii_fields: z.record(z.string(), z.array(z.string())),
  }),
  created_at: z.string(),
}));
const Window = z.object({ hot_days: z.number(), archive_days: z.number() });
const Settings = registry.register('Settings', z.object({
  template: z.object({ id: z.string(), name: z.string(), version: z.string() }).nullable(),
  dataRetentionDays: z.number().nullable(),
  retentionPolicy: z.object({ entity_events: Window.optional(), entity_states: Window.optional() }).nullable(),
  reportingCurrency: z.string(),
}));
const Entity = registry.register('Entity', z.object({
  id: z.string(), externalId: z.string(), entityType: z.string(), data: z.record(z.string(), z.unknown()), created_at: z.string(), updated_at: z.string(),
}));
const Event = registry.register('EntityEvent', z.object({ id: z.string(), event_type: z.string(), data: z.record(z.string(), z.unknown()), created_at: z.string() }));
const State = registry.register('EntityState', z.object({ state_key: z.string(), value: z.unknown(), updated_at: z.string() }));
const Job = registry.register('BatchJob', z.object({
  id: z.string(), type: z.string(), status: z.enum(['queued', 'running', 'completed', 'failed']), progress: z.number(),
  output: z.object({ succeeded: z.number(), failed: z.number(), errors: z.array(z.object({ index: z.number(), externalId: z.string().nullable(), code: z.string(), message: z.string() })) }),
  error: z.string().nullable(), created_at: z.string(), completed_at: z.string().nullable(),
}));
const idempotencyHeader = z.object({ 'Idempotency-Key': z.string().optional() });
const rateLimited: [number, string] = [429, 'RATE_LIMITED'];
const badParam: [number, string] = [400, 'VALIDATION_FAILED: a path parameter is too long'];
const noTemplate: [number, string] = [400, 'MISSING_FIELDS, VALIDATION_FAILED or TEMPLATE_NOT_CONFIGURED'];
const path = (suffix: string) => `/operator-data-api${suffix}`;

registry.registerPath({ method: 'get', path: path('/templates'), summary: 'List templates', security, responses: { 200: jsonContent(ok(z.array(Template)), 'Templates', examples.templates), ...errors() } });
registry.registerPath({ method: 'get', path: path('/settings'), summary: "The operator's settings", security, responses: { 200: jsonContent(ok(Settings), 'Settings', examples.settings), ...errors() } });
registry.registerPath({
  method: 'put', path: path('/settings'), summary: 'Select the template, retention and reporting currency', security,
  request: { body: jsonContent(SettingsBody, 'Any of the settings', examples.settingsBody) },
  responses: { 200: jsonContent(ok(Settings), 'Updated settings', examples.settings), ...errors([400, 'VALIDATION_FAILED']) },
});
registry.registerPath({
  method: 'post', path: path('/entities'), summary: 'Create or update an entity', security,
  request: { headers: idempotencyHeader, body: jsonContent(EntityBody, 'The entity', examples.entityBody) },
  responses: {
    200: jsonContent(ok(z.object({ id: z.string(), externalId: z.string(), entityType: z.string(), action: z.enum(['updated', 'duplicate']) })), 'Updated, or a repeated Idempotency-Key', examples.entityUpdated),
    201: jsonContent(ok(z.object({ id: z.string(), externalId: z.string(), entityType: z.string(), action: z.literal('created') })), 'Created', examples.entityCreated),
    ...errors(noTemplate, [409, 'ENTITY_ERASED or IDEMPOTENCY_KEY_REUSED'], rateLimited),
  },
});
registry.registerPath({ method: 'get', path: path('/entities/{externalId}'), summary: 'Read an entity (PII decrypted)', security, request: { params: ExternalIdParams }, responses: { 200: jsonContent(ok(Entity), 'The entity', examples.entity), ...errors(badParam, [404, 'ENTITY_NOT_FOUND']) } });
registry.registerPath({
  method: 'delete', path: path('/entities/{externalId}'), summary: 'Erase an entity (data protection)', security, request: { params: ExternalIdParams },
  responses: { 200: jsonContent(ok(z.object({ id: z.string(), externalId: z.string(), deleted: z.literal(true) })), 'Erased', examples.entityErased), ...errors(badParam, [404, 'ENTITY_NOT_FOUND']) },
});
registry.registerPath({
  method: 'post', path: path('/entities/{externalId}/events'), summary: 'Record an event', security,
  request: { params: ExternalIdParams, headers: idempotencyHeader, body: jsonContent(EventBody, 'The event', examples.eventBody) },
  responses: {
    200: jsonContent(ok(z.object({ id: z.string(), action: z.literal('duplicate') })), 'A repeated Idempotency-Key', examples.eventDuplicate),
    201: jsonContent(ok(z.object({ id: z.string() })), 'Recorded', examples.eventRecorded),
    ...errors(noTemplate, [404, 'ENTITY_NOT_FOUND'], [409, 'ENTITY_ERASED or IDEMPOTENCY_KEY_REUSED'], rateLimited),
  },
});
registry.registerPath({
  method: 'get', path: path('/entities/{externalId}/events'), summary: "List an entity's events, newest first", security, request: { params: ExternalIdParams, query: EventsQuery },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Event), count: z.number() }), 'A page of events', examples.events), ...errors([400, 'VALIDATION_FAILED'], [404, 'ENTITY_NOT_FOUND']) },
});
registry.registerPath({
  method: 'put', path: path('/entities/{externalId}/state/{key}'), summary: 'Set a state value (`{ value }` or the bare value)', security,
  request: { params: StateParams, body: jsonContent(z.unknown(), 'The value', examples.stateBody) },
  responses: { 200: jsonContent(ok(State), 'Stored', examples.state), ...errors(noTemplate, [404, 'ENTITY_NOT_FOUND'], [409, 'ENTITY_ERASED'], rateLimited) },
});
registry.registerPath({ method: 'get', path: path('/entities/{externalId}/state'), summary: "All of an entity's states", security, request: { params: ExternalIdParams }, responses: { 200: jsonContent(ok(z.array(State)), 'States', examples.states), ...errors(badParam, [404, 'ENTITY_NOT_FOUND']) } });
registry.registerPath({ method: 'get', path: path('/entities/{externalId}/state/{key}'), summary: 'One state value', security, request: { params: StateParams }, responses: { 200: jsonContent(ok(State), 'The state', examples.state), ...errors(badParam, [404, 'ENTITY_NOT_FOUND or NOT_FOUND']) } });
for (const [kind, item, limit] of [['entities', BatchEntityItem, 1000], ['events', BatchEventItem, 5000], ['states', BatchStateItem, 1000]] as const) {
  registry.registerPath({
    method: 'post', path: path(`/batch/${kind}`), summary: `Submit a batch of up to ${limit} ${kind} (runs as a Temporal workflow)`, security,
    request: { body: jsonContent(z.array(item).min(1).max(limit), 'The items', examples.batchBodies[kind]) },
    responses: { 202: jsonContent(ok(z.object({ jobId: z.string(), status: z.literal('queued') })), 'Accepted', examples.batchQueued), ...errors([400, 'INVALID_INPUT or TEMPLATE_NOT_CONFIGURED'], rateLimited) },
  });
}
registry.registerPath({ method: 'get', path: path('/batch/jobs/{jobId}'), summary: 'A batch job and its per-item errors', security, request: { params: JobParams }, responses: { 200: jsonContent(ok(Job), 'The job', examples.batchJob), ...errors(badParam, [404, 'NOT_FOUND']) } });
