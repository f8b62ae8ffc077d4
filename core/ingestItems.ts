import type { Keyring } from './crypto';
import { occurrenceOf } from './occurrence';
import { sealPii } from './pii';
import { describeProblems, validateEntity, validateEvent, validateStateKey, type FieldProblem, type TemplateSchema } from './templates';

/** The three batch endpoints: `/batch/entities`, `/batch/events`, `/batch/states`. */
export type BatchKind = 'entities' | 'events' | 'states';

export interface EntityWrite {
  entityType: string;
  externalId: string;
  /** PII fields already sealed. */
  data: Record<string, unknown>;
}

export interface EventWrite {
  externalId: string;
  eventType: string;
  data: Record<string, unknown>;
  /** The event's own time (`data.timestamp`, core/occurrence.ts) as an ISO instant; absent or null: when it arrives. */
  occurredAt?: string | null;
}

export interface StateWrite {
  externalId: string;
  stateKey: string;
  value: unknown;
}

export interface ItemError {
  code: 'MISSING_FIELDS' | 'VALIDATION_FAILED' | 'ENTITY_NOT_FOUND' | 'ENTITY_ERASED';
  message: string;
  details?: FieldProblem[];
}

export type Prepared<T> = { ok: true; write: T } | { ok: false; error: ItemError };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0 && value.length <= 255;

function missing(fields: string[]): Prepared<never> {
  return {
    ok: false,
    error: {
      code: 'MISSING_FIELDS',
      message: `Missing required fields: ${fields.join(', ')}`,
      details: fields.map((field) => ({ field, message: 'is required' })),
    },
  };
}

function invalid(problems: FieldProblem[]): Prepared<never> {
  return { ok: false, error: { code: 'VALIDATION_FAILED', message: describeProblems(problems), details: problems } };
}

function shapeProblems(item: Record<string, unknown>, spec: Array<[string, (value: unknown) => boolean, string]>): Prepared<never> | null {
  const absent = spec.filter(([field]) => item[field] === undefined || item[field] === null).map(([field]) => field);
  if (absent.length > 0) return missing(absent);
  const problems = spec.filter(([field, check]) => !check(item[field])).map(([field, , message]) => ({ field, message }));
  return problems.length > 0 ? invalid(problems) : null;
}

/**
 * Validates one entity item against the template and seals its PII: the same rules for a single
 * `POST /entities` and for every item of a batch.
 */
export function prepareEntity(template: TemplateSchema, keyring: Keyring, operatorId: string, raw: unknown): Prepared<EntityWrite> {
  if (!isObject(raw)) return invalid([{ field: 'item', message: 'must be an object' }]);
  const shape = shapeProblems(raw, [
    ['entityType', (v) => typeof v === 'string' && v.length > 0, 'must be a non-empty string'],
    ['externalId', isId, 'must be a string of 1 to 255 characters'],
    ['data', isObject, 'must be an object'],
  ]);
  if (shape) return shape;
  const { entityType, externalId, data } = raw as { entityType: string; externalId: string; data: Record<string, unknown> };
  const problems = validateEntity(template, entityType, data);
  if (problems.length > 0) return invalid(problems);
  return { ok: true, write: { entityType, externalId, data: sealPii(keyring, template, operatorId, entityType, externalId, data) } };
}

export function prepareEvent(template: TemplateSchema, raw: unknown, now: number = Date.now()): Prepared<EventWrite> {
  if (!isObject(raw)) return invalid([{ field: 'item', message: 'must be an object' }]);
  const shape = shapeProblems(raw, [
    ['externalId', isId, 'must be a string of 1 to 255 characters'],
    ['eventType', (v) => typeof v === 'string' && v.length > 0 && v.length <= 100, 'must be a non-empty string'],
    ['data', isObject, 'must be an object'],
  ]);
  if (shape) return shape;
  const { externalId, eventType, data } = raw as { externalId: string; eventType: string; data: Record<string, unknown> };
  const problems = [...validateEvent(template, eventType, data), ...analyticsKeyProblems(data)];
  const occurrence = occurrenceOf(data, now);
  if (!occurrence.ok && !problems.some((problem) => problem.field === occurrence.problem.field)) problems.push(occurrence.problem);
  if (problems.length > 0 || !occurrence.ok) return invalid(problems);
  return { ok: true, write: { externalId, eventType, data, occurredAt: occurrence.occurredAt } };
}

/**
 * The event fields analytics group by (the rollups of db/migrations/20261211090000_create_analytics_rollups.ts) and the
 * most each may hold. They key the rollups' primary keys and indexes, shared by every organisation: a 10 MB game name
 * would make every catch-up pass fail ("index row requires … bytes") for all of them, so a longer one is refused here,
 * naming the field. The rollups key on the field's text (`data->>'field'`), which for an object or array is its whole JSON, so any value is measured as that
 * text: a `currency` object on a `session` event (no template rule types it) is bounded too.
 */
export const ANALYTICS_KEY_LIMITS = { game_name: 200, game_id: 200, provider: 200, currency: 16 } as const;

/** The text PostgreSQL's `->>` gives for a JSON value, to measure it (a string as is, anything else as its JSON). */
const keyText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function analyticsKeyProblems(data: Record<string, unknown>): FieldProblem[] {
  return Object.entries(ANALYTICS_KEY_LIMITS)
    .filter(([field, limit]) => data[field] !== undefined && data[field] !== null && keyText(data[field]).length > limit)
    .map(([field, limit]) => ({ field: `data.${field}`, message: `must be at most ${limit} characters` }));
}

/**
 * The most a state value may take as JSON (UTF-8 bytes), whoever writes it: `PUT /entities/:externalId/state/:key`, a
 * batch of states, `action.set_state`. A state is a balance, a tier, a score; every change of one is an internal event
 * that carries the value to the automations listening, so it is kept to a tenth of the request body limit.
 */
export const MAX_STATE_VALUE_BYTES = 1024 * 1024;

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** The size problem of a state value, measured without holding a second copy past the bound. */
function stateValueProblem(value: unknown): FieldProblem | null {
  const json = JSON.stringify(value) ?? 'null';
  if (json.length <= MAX_STATE_VALUE_BYTES / 3) return null;
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= MAX_STATE_VALUE_BYTES) return null;
  return { field: 'value', message: `must be at most ${megabytes(MAX_STATE_VALUE_BYTES)} as JSON (is ${megabytes(bytes)})` };
}

export function prepareState(template: TemplateSchema, raw: unknown): Prepared<StateWrite> {
  if (!isObject(raw)) return invalid([{ field: 'item', message: 'must be an object' }]);
  const shape = shapeProblems(raw, [
    ['externalId', isId, 'must be a string of 1 to 255 characters'],
    ['stateKey', (v) => typeof v === 'string' && v.length > 0, 'must be a non-empty string'],
    ['value', () => true, ''],
  ]);
  if (shape) return shape;
  const { externalId, stateKey, value } = raw as { externalId: string; stateKey: string; value: unknown };
  const problems = validateStateKey(template, stateKey);
  const tooLarge = stateValueProblem(value);
  if (tooLarge) problems.push(tooLarge);
  if (problems.length > 0) return invalid(problems);
  return { ok: true, write: { externalId, stateKey, value } };
}
