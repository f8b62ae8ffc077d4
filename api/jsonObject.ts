import { z } from 'zod';
import './openapi/registry';

const recordShape = z.record(z.string(), z.unknown());

/**
 * A JSON object of any fields, handed on as sent. `z.record` builds a new object and leaves a `__proto__` key out of
 * it (assigning one would set the copy's prototype), silently losing a field JSON.parse keeps as an own property; here
 * `z.record` only checks the shape (the same issues and messages) and the value passed on is the input itself, so a
 * `__proto__` field is data like any other (docs/security.md "`__proto__` keys"). For every tenant object whose keys
 * are the tenant's own: entity and event data, gateway params, an expression preview's sample.
 */
export const jsonObject = z
  .custom<Record<string, unknown>>()
  .check((ctx) => {
    const parsed = recordShape.safeParse(ctx.value);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: ctx.value } as z.core.$ZodRawIssue);
  })
  .openapi({ type: 'object', additionalProperties: {} });
