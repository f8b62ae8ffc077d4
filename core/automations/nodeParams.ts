import { compileProblem, hasUnclosedTemplate, templateExpressions } from './expressions';
import { cronProblem, inputSchemaProblems, timezoneProblem } from './triggerSchema';
import { isRecord, type NodeType } from './types';

/** The params rule of every node type (DESIGN.md "Workflows"), used by `validateAutomationBody`. */

/** Problems found so far, each naming its field path. */
export type Problems = Array<{ field: string; message: string }>;
type Check = (value: unknown, field: string, problems: Problems) => void;
interface Param {
  required: boolean;
  check: Check;
}

const MAX_DEPTH = 32;
/** The longest condition, filter or `{{ }}` expression: a size budget at definition time, beside the time and memory budgets of a run. */
export const MAX_EXPRESSION_LENGTH = 4_000;
const TOO_LONG = `must be at most ${MAX_EXPRESSION_LENGTH} characters of expression`;

/** Every string at any depth may embed `{{ <JSONata> }}`; each must compile. Depth is bounded so no body overflows the stack. */
function templates(value: unknown, field: string, problems: Problems, depth = 0): void {
  if (depth > MAX_DEPTH) return void problems.push({ field, message: `must not be nested more than ${MAX_DEPTH} levels deep` });
  if (typeof value === 'string') {
    if (hasUnclosedTemplate(value)) problems.push({ field, message: "has a '{{' without a closing '}}'" });
    for (const source of templateExpressions(value)) {
      if (source.length > MAX_EXPRESSION_LENGTH) {
        problems.push({ field, message: `a {{ }} template ${TOO_LONG}` });
        continue;
      }
      const problem = compileProblem(source);
      if (problem) problems.push({ field, message: `invalid expression: ${problem}` });
    }
  } else if (Array.isArray(value)) value.forEach((item, index) => templates(item, `${field}[${index}]`, problems, depth + 1));
  else if (isRecord(value)) for (const [key, inner] of Object.entries(value)) templates(inner, `${field}.${key}`, problems, depth + 1);
}

const isTemplated = (text: string): boolean => templateExpressions(text).length > 0;

/** A string param; `literal` ones (trigger settings, read before any run exists) are not templated. */
const text =
  (options: { literal?: boolean; min?: number; max?: number; pattern?: RegExp; patternMessage?: string } = {}): Check =>
  (value, field, problems) => {
    const { min = 1, max = 10_000 } = options;
    if (typeof value !== 'string') return void problems.push({ field, message: 'must be a string' });
    if (value.trim().length < min || value.length > max) {
      return void problems.push({ field, message: min === 1 && value.trim() === '' ? 'must not be empty' : `must be ${min} to ${max} characters` });
    }
    if (!options.literal) templates(value, field, problems);
    const checkPattern = options.literal || !isTemplated(value);
    if (options.pattern && checkPattern && !options.pattern.test(value))
      problems.push({ field, message: options.patternMessage ?? `must match ${options.pattern}` });
  };

const expression: Check = (value, field, problems) => {
  if (typeof value !== 'string' || value.trim() === '') return void problems.push({ field, message: 'must be a non-empty JSONata expression' });
  if (value.length > MAX_EXPRESSION_LENGTH) return void problems.push({ field, message: TOO_LONG });
  const problem = compileProblem(value);
  if (problem) problems.push({ field, message: `invalid expression: ${problem}` });
};

const anyJson: Check = (value, field, problems) => {
  if (value === undefined) return void problems.push({ field, message: 'is required' });
  templates(value, field, problems);
};

const object: Check = (value, field, problems) => {
  if (!isRecord(value)) return void problems.push({ field, message: 'must be an object' });
  templates(value, field, problems);
};

const objectOrExpression: Check = (value, field, problems) => {
  if (typeof value === 'string' && templateExpressions(value).length === 1 && /^\s*\{\{[\s\S]*\}\}\s*$/.test(value)) return templates(value, field, problems);
  if (!isRecord(value)) return void problems.push({ field, message: "must be an object or a single '{{ expression }}'" });
  templates(value, field, problems);
};

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
const headers: Check = (value, field, problems) => {
  if (!isRecord(value)) return void problems.push({ field, message: 'must be an object of header names to strings' });
  for (const [name, inner] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) problems.push({ field: `${field}.${name}`, message: 'is not a valid header name' });
    else if (typeof inner !== 'string') problems.push({ field: `${field}.${name}`, message: 'must be a string' });
    else templates(inner, `${field}.${name}`, problems);
  }
};

const oneOf =
  (allowed: readonly string[]): Check =>
  (value, field, problems) => {
    if (typeof value !== 'string' || !allowed.includes(value)) problems.push({ field, message: `must be one of ${allowed.join(', ')}` });
  };

const integer =
  (min: number, max: number): Check =>
  (value, field, problems) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      problems.push({ field, message: `must be an integer from ${min} to ${max}` });
  };

const boolean: Check = (value, field, problems) => {
  if (typeof value !== 'boolean') problems.push({ field, message: 'must be true or false' });
};

const secret: Check = (value, field, problems) => {
  if (value === null) return;
  if (typeof value !== 'string' || value.length < 16 || value.length > 256)
    problems.push({ field, message: 'must be null or a string of 16 to 256 characters' });
};

const inputSchema: Check = (value, field, problems) => void problems.push(...inputSchemaProblems(value, field));

const httpUrl: Check = (value, field, problems) => {
  text()(value, field, problems);
  if (typeof value !== 'string' || isTemplated(value) || value.trim() === '') return;
  let url: URL | null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) problems.push({ field, message: 'must be an absolute http or https URL' });
};

const cron: Check = (value, field, problems) => {
  const problem = cronProblem(value);
  if (problem) problems.push({ field, message: problem });
};

const timezone: Check = (value, field, problems) => {
  const problem = timezoneProblem(value);
  if (problem) problems.push({ field, message: problem });
};

const EVENT_NAME = /^[a-z_]+(\.[a-z0-9_-]+)*$/;
const need = (check: Check): Param => ({ required: true, check });
const may = (check: Check): Param => ({ required: false, check });

const PARAMS: Record<NodeType, Record<string, Param>> = {
  'trigger.manual': { inputSchema: may(inputSchema) },
  'trigger.event': {
    event: need(
      text({ literal: true, max: 200, pattern: EVENT_NAME, patternMessage: 'must be an event name such as entity_event.transaction or entity.created' }),
    ),
    filter: may(expression),
  },
  'trigger.webhook': {
    secret: may(secret),
    inputSchema: may(inputSchema),
    name: may(text({ literal: true, pattern: /^[a-z0-9_-]{1,64}$/, patternMessage: 'must be 1 to 64 of a-z, 0-9, _ and -' })),
    webhookId: may(text({ literal: true, max: 200 })),
    hasSecret: may(boolean),
  },
  'trigger.schedule': { cron: need(cron), timezone: need(timezone) },
  condition: { expression: need(expression) },
  'action.http_request': {
    method: need(oneOf(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])),
    url: need(httpUrl),
    headers: may(headers),
    body: may(anyJson),
  },
  'action.gateway': { connectionId: need(text()), operation: need(text()), params: may(object) },
  'action.set_state': { externalId: need(text()), key: need(text()), value: need(anyJson) },
  'action.record_event': { externalId: need(text()), eventType: need(text()), data: need(objectOrExpression) },
  'action.upsert_entity': { entityType: need(text()), externalId: need(text()), data: need(objectOrExpression) },
  'action.delay': { seconds: need(integer(1, 2_592_000)) },
  'action.send_email': {
    to: need(text({ max: 320, pattern: /^[^\s@]+@[^\s@]+$/, patternMessage: 'must be an email address' })),
    subject: need(text({ max: 998 })),
    text: need(text({ max: 100_000 })),
  },
  'action.ai': { prompt: need(text({ max: 100_000 })), model: may(text({ max: 200 })) },
  'action.approval': { message: need(text({ max: 2_000 })), timeoutSeconds: may(integer(1, 2_592_000)) },
};

/**
 * Checks a node's params against its type: exactly the params the type takes, each with its rule
 * (strings may embed `{{ }}` JSONata that must compile), problems named by field path.
 *
 * @example checkParams('action.delay', { seconds: 0 }, 'nodes[2].params', problems) // nodes[2].params.seconds: …
 */
export function checkParams(type: NodeType, params: Record<string, unknown>, field: string, problems: Problems): void {
  const spec = PARAMS[type];
  for (const key of Object.keys(params)) {
    if (!Object.hasOwn(spec, key)) problems.push({ field: `${field}.${key}`, message: 'unknown parameter' });
  }
  for (const [key, param] of Object.entries(spec)) {
    const value = params[key];
    if (!Object.hasOwn(params, key) || value === undefined) {
      if (param.required) problems.push({ field: `${field}.${key}`, message: 'is required' });
      continue;
    }
    param.check(value, `${field}.${key}`, problems);
  }
}
