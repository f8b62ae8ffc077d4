import { z } from 'zod';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import type { defaultValidationError } from '../middleware/validate';
import { jsonContent } from '../openapi/registry';
import { data } from './area';
import { codedErrors, successBody } from '../openapi/responses';
import { getBatchJobHandler, submitBatchHandler } from './batches';
import { eraseEntityHandler, getEntityHandler, upsertEntityHandler } from './entities';
import { listEventsHandler, recordEventHandler } from './events';
import * as examples from './examples';
import { BATCH_LIMITS, BatchEntityItem, BatchEventItem, BatchStateItem, Entity, Event, IdempotencyHeader, Job, Settings, State, Template } from './schema';
import { getSettingsHandler, listTemplatesHandler, putSettingsHandler } from './settings';
import { getStateHandler, listStatesHandler, putStateHandler } from './states';

/** Settings problems are always `VALIDATION_FAILED` naming the field (every setting is optional). */
const settingsError = (result: Parameters<typeof defaultValidationError>[0]) =>
  new AppError(400, 'VALIDATION_FAILED', `Invalid settings: ${result.problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, { details: result.problems });

const errors = (...codes: Array<[number, string]>) =>
  codedErrors([401, 'UNAUTHORIZED: missing or invalid API key or dashboard credential'], ...codes, [500, 'INTERNAL_ERROR']);
const rateLimited: [number, string] = [429, 'RATE_LIMITED'];
/** Writes only: a Member's dashboard credential reads (docs/identity.md, the dashboard credential). */
const memberReads: [number, string] = [403, "FORBIDDEN: a Member's dashboard credential only reads"];
const badParam: [number, string] = [400, 'VALIDATION_FAILED: a path parameter is too long'];
const noTemplate: [number, string] = [400, 'MISSING_FIELDS, VALIDATION_FAILED or TEMPLATE_NOT_CONFIGURED'];

data.endpoint({
  method: 'get',
  path: '/templates',
  summary: 'List templates',
  responses: { 200: jsonContent(successBody(z.array(Template)), 'Templates', examples.templates), ...errors() },
  ...listTemplatesHandler,
});
data.endpoint({
  method: 'get',
  path: '/settings',
  summary: "The operator's settings",
  responses: { 200: jsonContent(successBody(Settings), 'Settings', examples.settings), ...errors() },
  ...getSettingsHandler,
});
data.endpoint({
  method: 'put',
  path: '/settings',
  summary: 'Select the template, retention and reporting currency',
  inputError: settingsError,
  request: { body: { description: 'Any of the settings', example: examples.settingsBody } },
  responses: { 200: jsonContent(successBody(Settings), 'Updated settings', examples.settings), ...errors([400, 'VALIDATION_FAILED'], memberReads) },
  ...putSettingsHandler,
});

data.endpoint({
  method: 'post',
  path: '/entities',
  summary: 'Create or update an entity',
  guards: ['realtime'],
  request: { headers: IdempotencyHeader, body: { description: 'The entity', example: examples.entityBody } },
  responses: {
    200: jsonContent(
      successBody(z.object({ id: z.string(), externalId: z.string(), entityType: z.string(), action: z.enum(['updated', 'duplicate']) })),
      'Updated, or a repeated Idempotency-Key',
      examples.entityUpdated,
    ),
    201: jsonContent(
      successBody(z.object({ id: z.string(), externalId: z.string(), entityType: z.string(), action: z.literal('created') })),
      'Created',
      examples.entityCreated,
    ),
    ...errors(noTemplate, memberReads, [409, 'ENTITY_ERASED or IDEMPOTENCY_KEY_REUSED'], rateLimited),
  },
  ...upsertEntityHandler,
});
data.endpoint({
  method: 'get',
  path: '/entities/:externalId',
  summary: 'Read an entity (PII decrypted)',
  responses: { 200: jsonContent(successBody(Entity), 'The entity', examples.entity), ...errors(badParam, [404, 'ENTITY_NOT_FOUND']) },
  ...getEntityHandler,
});
data.endpoint({
  method: 'delete',
  path: '/entities/:externalId',
  summary: 'Erase an entity (data protection)',
  responses: {
    200: jsonContent(successBody(z.object({ id: z.string(), externalId: z.string(), deleted: z.literal(true) })), 'Erased', examples.entityErased),
    ...errors(badParam, memberReads, [404, 'ENTITY_NOT_FOUND']),
  },
  ...eraseEntityHandler,
});
data.endpoint({
  method: 'post',
  path: '/entities/:externalId/events',
  summary: 'Record an event',
  guards: ['realtime'],
  request: { headers: IdempotencyHeader, body: { description: 'The event', example: examples.eventBody } },
  responses: {
    200: jsonContent(successBody(z.object({ id: z.string(), action: z.literal('duplicate') })), 'A repeated Idempotency-Key', examples.eventDuplicate),
    201: jsonContent(successBody(z.object({ id: z.string() })), 'Recorded', examples.eventRecorded),
    ...errors(noTemplate, memberReads, [404, 'ENTITY_NOT_FOUND'], [409, 'ENTITY_ERASED or IDEMPOTENCY_KEY_REUSED'], rateLimited),
  },
  ...recordEventHandler,
});
data.endpoint({
  method: 'get',
  path: '/entities/:externalId/events',
  summary: "List an entity's events, newest first",
  responses: {
    200: jsonContent(z.object({ success: z.literal(true), data: z.array(Event), count: z.number() }), 'A page of events', examples.events),
    ...errors([400, 'VALIDATION_FAILED'], [404, 'ENTITY_NOT_FOUND']),
  },
  ...listEventsHandler,
});
data.endpoint({
  method: 'put',
  path: '/entities/:externalId/state/:key',
  summary: 'Set a state value (`{ value }` or the bare value)',
  guards: ['realtime'],
  request: { body: { schema: z.unknown(), description: 'The value', example: examples.stateBody } },
  responses: {
    200: jsonContent(successBody(State), 'Stored', examples.state),
    ...errors(noTemplate, memberReads, [404, 'ENTITY_NOT_FOUND'], [409, 'ENTITY_ERASED'], rateLimited),
  },
  ...putStateHandler,
});
data.endpoint({
  method: 'get',
  path: '/entities/:externalId/state',
  summary: "All of an entity's states",
  responses: { 200: jsonContent(successBody(z.array(State)), 'States', examples.states), ...errors(badParam, [404, 'ENTITY_NOT_FOUND']) },
  ...listStatesHandler,
});
data.endpoint({
  method: 'get',
  path: '/entities/:externalId/state/:key',
  summary: 'One state value',
  responses: { 200: jsonContent(successBody(State), 'The state', examples.state), ...errors(badParam, [404, 'ENTITY_NOT_FOUND or NOT_FOUND']) },
  ...getStateHandler,
});

/** Batches are checked item by item by their workflow, so the body is documented here, not validated. */
for (const [kind, item] of [
  ['entities', BatchEntityItem],
  ['events', BatchEventItem],
  ['states', BatchStateItem],
] as const) {
  const limit = BATCH_LIMITS[kind];
  data.endpoint({
    method: 'post',
    path: `/batch/${kind}`,
    summary: `Submit a batch of up to ${limit} ${kind} (runs as a Temporal workflow)`,
    guards: ['batch'],
    request: { body: { schema: z.array(item).min(1).max(limit), description: 'The items', example: examples.batchBodies[kind] } },
    responses: {
      202: jsonContent(successBody(z.object({ jobId: z.string(), status: z.literal('queued') })), 'Accepted', examples.batchQueued),
      ...errors([400, 'INVALID_INPUT or TEMPLATE_NOT_CONFIGURED'], memberReads, rateLimited),
    },
    ...submitBatchHandler(kind),
  });
}
data.endpoint({
  method: 'get',
  path: '/batch/jobs/:jobId',
  summary: 'A batch job and its per-item errors',
  responses: { 200: jsonContent(successBody(Job), 'The job', examples.batchJob), ...errors(badParam, [404, 'NOT_FOUND']) },
  ...getBatchJobHandler,
});

export const createOperatorDataRouter = (deps: AppDeps) => data.router(deps);
