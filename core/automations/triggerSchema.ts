import { CronExpressionParser } from 'cron-parser';
import type { TemplateSchema } from '../templates';
import { isRecord, type AutomationNode } from './types';

/** The JSON Schema subset a trigger's `inputSchema` may use, and the shape MCP's `tools/list` publishes. */
export interface TriggerInputSchema {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
}

export interface SchemaProblem {
  field: string;
  message: string;
}

const SCHEMA_KEYS = ['type', 'properties', 'required', 'description'];

/**
 * Problems of a trigger's `inputSchema` (`{ type: 'object', properties?, required?, description? }`), at `field`.
 * Kept to this subset because MCP clients receive it as the tool's `inputSchema` and `missingTriggerFields` enforces
 * only `required`.
 *
 * @example inputSchemaProblems({ type: 'object', required: [1] }, 'nodes[0].params.inputSchema')
 * // [{ field: 'nodes[0].params.inputSchema.required[0]', message: 'must be a string' }]
 */
export function inputSchemaProblems(value: unknown, field: string): SchemaProblem[] {
  if (!isRecord(value)) return [{ field, message: 'must be an object' }];
  const problems: SchemaProblem[] = [];
  for (const key of Object.keys(value)) {
    if (!SCHEMA_KEYS.includes(key)) problems.push({ field: `${field}.${key}`, message: 'unknown parameter; allowed: type, properties, required, description' });
  }
  if (value.type !== 'object') problems.push({ field: `${field}.type`, message: "must be 'object'" });
  if (value.description !== undefined && typeof value.description !== 'string') problems.push({ field: `${field}.description`, message: 'must be a string' });
  if (value.properties !== undefined) {
    if (!isRecord(value.properties)) problems.push({ field: `${field}.properties`, message: 'must be an object' });
    else {
      for (const [name, schema] of Object.entries(value.properties)) {
        if (!isRecord(schema)) problems.push({ field: `${field}.properties.${name}`, message: 'must be an object (a JSON Schema)' });
      }
    }
  }
  if (value.required !== undefined) {
    if (!Array.isArray(value.required)) problems.push({ field: `${field}.required`, message: 'must be an array of property names' });
    else {
      value.required.forEach((name: unknown, index) => {
        if (typeof name !== 'string' || name === '') problems.push({ field: `${field}.required[${index}]`, message: 'must be a non-empty string' });
      });
    }
  }
  return problems;
}

const EMPTY = (): TriggerInputSchema => ({ type: 'object', properties: {}, required: [] });

/**
 * The input a trigger expects (DESIGN.md "Effective trigger schema"): the `inputSchema` of a manual or webhook
 * trigger; for an `entity_event.<type>` trigger the template's required and optional fields of that event type (the
 * template carries no field types, so each property is `{}`); an empty object schema otherwise.
 *
 * @example effectiveInputSchema({ id: 't', type: 'trigger.event', params: { event: 'entity_event.transaction' } }, IGAMING_TEMPLATE.schema).required
 * // ['type', 'amount', 'currency']
 */
export function effectiveInputSchema(node: AutomationNode, template: TemplateSchema | null): TriggerInputSchema {
  if (node.type === 'trigger.manual' || node.type === 'trigger.webhook') {
    const schema = node.params.inputSchema;
    if (!isRecord(schema)) return EMPTY();
    const properties = isRecord(schema.properties) ? { ...schema.properties } : {};
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
    return { type: 'object', properties, required };
  }
  if (node.type === 'trigger.event' && typeof node.params.event === 'string' && template) {
    const match = /^entity_event\.([a-z0-9_]+)$/.exec(node.params.event);
    const spec = match?.[1] !== undefined && Object.hasOwn(template.event_types, match[1]) ? template.event_types[match[1]] : undefined;
    if (!spec) return EMPTY();
    const properties: Record<string, unknown> = {};
    for (const name of [...spec.required, ...spec.optional]) properties[name] = {};
    return { type: 'object', properties, required: [...spec.required] };
  }
  return EMPTY();
}

/**
 * Required trigger fields the payload lacks (absent or null); a run with any of them fails with
 * `MISSING_TRIGGER_FIELD` before a node runs (spec 4.6). A payload that is not an object lacks them all.
 *
 * @example missingTriggerFields({ type: 'object', properties: {}, required: ['amount'] }, { amount: null }) // ['amount']
 */
export function missingTriggerFields(schema: Pick<TriggerInputSchema, 'required'>, payload: unknown): string[] {
  if (!isRecord(payload)) return [...schema.required];
  return schema.required.filter((name) => !Object.hasOwn(payload, name) || payload[name] === undefined || payload[name] === null);
}

const CRON_NAMES = new Set([
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
  'sun',
  'mon',
  'tue',
  'wed',
  'thu',
  'fri',
  'sat',
]);

/**
 * Why a schedule trigger's `cron` is refused, or null. Five fields of numbers, names, `*`, ranges, lists and steps
 * only (no `@daily`, `L`, `W`, `#`, `?`): the subset that cron-parser and Temporal Schedules read alike.
 *
 * @example cronProblem('0 9 * * mon-fri') // null
 */
export function cronProblem(value: unknown): string | null {
  const message = "must be a 5-field cron expression (minute hour day-of-month month day-of-week), for example '0 9 * * 1-5'";
  if (typeof value !== 'string') return message;
  const fields = value.trim().split(/\s+/);
  const tokens = fields.flatMap((part) => part.split(/[,/-]/));
  if (fields.length !== 5 || !tokens.every((token) => token === '*' || /^\d+$/.test(token) || CRON_NAMES.has(token.toLowerCase()))) return message;
  try {
    CronExpressionParser.parse(value.trim());
    return null;
  } catch (error) {
    return `${message}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const ZONES = new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);

/**
 * Why a schedule trigger's `timezone` is refused, or null: an IANA name spelled canonically ('UTC' included), since
 * Temporal resolves it again when the schedule fires.
 *
 * @example timezoneProblem('Europe/Malta') // null
 */
export function timezoneProblem(value: unknown): string | null {
  const message = "must be an IANA time zone name, for example 'Europe/Malta' or 'UTC'";
  if (typeof value !== 'string' || value === '') return message;
  if (ZONES.has(value)) return null;
  try {
    if (new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone === value) return null;
  } catch {
    return message;
  }
  return message;
}
