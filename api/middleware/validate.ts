import type { Middleware } from 'koa';
import type { z } from 'zod';
import { AppError } from '../errors';

export interface FieldProblem {
  field: string;
  message: string;
}

type Part = 'body' | 'query' | 'params';
type InputSchemas = Partial<Record<Part, z.ZodType>>;

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** Zod issues as field problems; a field is "missing" when the input has nothing at its path. */
export function describeIssues(error: z.ZodError, input: unknown, part?: Part): { missing: string[]; problems: FieldProblem[] } {
  const missing: string[] = [];
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || (part ?? 'body');
    const absent = issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    if (absent) missing.push(field);
    problems.push({ field, message: absent ? 'is required' : issue.message });
  }
  return { missing, problems };
}

/** The default mapping for `coded` areas: `MISSING_FIELDS` when only required fields are absent, else `VALIDATION_FAILED`. */
export function defaultValidationError(result: { missing: string[]; problems: FieldProblem[] }): AppError {
  if (result.missing.length > 0 && result.missing.length === result.problems.length) {
    return new AppError(400, 'MISSING_FIELDS', `Missing required fields: ${result.missing.join(', ')}`, { details: result.problems });
  }
  const summary = result.problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  return new AppError(400, 'VALIDATION_FAILED', `Invalid input: ${summary}`, { details: result.problems });
}

/** PostgreSQL text cannot hold NUL, so a `%00` in a query or path parameter is a 400, never a query error (500). */
function rejectNul(raw: Record<string, unknown>, toError: typeof defaultValidationError): void {
  const fields = Object.entries(raw).filter(([, value]) =>
    (Array.isArray(value) ? value : [value]).some((item) => typeof item === 'string' && item.includes('\u0000')),
  );
  if (fields.length > 0) throw toError({ missing: [], problems: fields.map(([field]) => ({ field, message: 'must not contain NUL characters' })) });
}

/**
 * Validates body, query and route params with zod before the handler runs; the parsed values are on
 * `ctx.state.input`, which `defineArea` hands the handler as its typed `input`. The 4xx names every offending field.
 *
 * @example router.post('/signup', validate({ body: SignupBody }), signup)
 */
export function validate(schemas: InputSchemas, toError = defaultValidationError): Middleware {
  return async (ctx, next) => {
    const input: Record<string, unknown> = {};
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const raw = (part === 'body' ? ctx.request.body : part === 'query' ? ctx.query : ctx.params) ?? {};
      if (part !== 'body') rejectNul(raw as Record<string, unknown>, toError);
      const result = schema.safeParse(raw);
      if (!result.success) throw toError(describeIssues(result.error, raw, part));
      input[part] = result.data;
    }
    ctx.state.input = input;
    await next();
  };
}
