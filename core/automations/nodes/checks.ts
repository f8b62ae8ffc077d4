import { compileProblem, hasUnclosedTemplate, templateExpressions } from '../expressions';
import { isRecord } from '../types';

/**
 * The rules node params are checked with (trigger settings' own: ./triggerChecks.ts): each a `Check` that reports problems by field path. Node modules
 * (./index.ts) compose them into their params rule; `checkParams` (../nodeParams.ts) applies that rule.
 */

/** Problems found so far, each naming its field path. */
export type Problems = Array<{ field: string; message: string }>;
export type Check = (value: unknown, field: string, problems: Problems) => void;
export interface Param {
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
export const text =
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

export const expression: Check = (value, field, problems) => {
  if (typeof value !== 'string' || value.trim() === '') return void problems.push({ field, message: 'must be a non-empty JSONata expression' });
  if (value.length > MAX_EXPRESSION_LENGTH) return void problems.push({ field, message: TOO_LONG });
  const problem = compileProblem(value);
  if (problem) problems.push({ field, message: `invalid expression: ${problem}` });
};

export const anyJson: Check = (value, field, problems) => {
  if (value === undefined) return void problems.push({ field, message: 'is required' });
  templates(value, field, problems);
};

export const object: Check = (value, field, problems) => {
  if (!isRecord(value)) return void problems.push({ field, message: 'must be an object' });
  templates(value, field, problems);
};

export const objectOrExpression: Check = (value, field, problems) => {
  if (typeof value === 'string' && templateExpressions(value).length === 1 && /^\s*\{\{[\s\S]*\}\}\s*$/.test(value)) return templates(value, field, problems);
  if (!isRecord(value)) return void problems.push({ field, message: "must be an object or a single '{{ expression }}'" });
  templates(value, field, problems);
};

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
export const headers: Check = (value, field, problems) => {
  if (!isRecord(value)) return void problems.push({ field, message: 'must be an object of header names to strings' });
  for (const [name, inner] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) problems.push({ field: `${field}.${name}`, message: 'is not a valid header name' });
    else if (typeof inner !== 'string') problems.push({ field: `${field}.${name}`, message: 'must be a string' });
    else templates(inner, `${field}.${name}`, problems);
  }
};

export const oneOf =
  (allowed: readonly string[]): Check =>
  (value, field, problems) => {
    if (typeof value !== 'string' || !allowed.includes(value)) problems.push({ field, message: `must be one of ${allowed.join(', ')}` });
  };

export const integer =
  (min: number, max: number): Check =>
  (value, field, problems) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      problems.push({ field, message: `must be an integer from ${min} to ${max}` });
  };

export const boolean: Check = (value, field, problems) => {
  if (typeof value !== 'boolean') problems.push({ field, message: 'must be true or false' });
};

export const secret: Check = (value, field, problems) => {
  if (value === null) return;
  if (typeof value !== 'string' || value.length < 16 || value.length > 256)
    problems.push({ field, message: 'must be null or a string of 16 to 256 characters' });
};

export const httpUrl: Check = (value, field, problems) => {
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

/** An internal event name as `trigger.event` takes it (`entity_event.transaction`, `entity.created`). */
const EVENT_NAME = /^[a-z_]+(\.[a-z0-9_-]+)*$/;
export const eventName = text({
  literal: true,
  max: 200,
  pattern: EVENT_NAME,
  patternMessage: 'must be an event name such as entity_event.transaction or entity.created',
});
export const need = (check: Check): Param => ({ required: true, check });
export const may = (check: Check): Param => ({ required: false, check });
