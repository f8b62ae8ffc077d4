import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Middleware } from 'koa';
import { Readable } from 'node:stream';

interface Checkable {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

const isCheckable = (schema: unknown): schema is Checkable => typeof (schema as Checkable | undefined)?.safeParse === 'function';

/** What a 2xx answer's body breaks in its declaration, or null when it keeps it (or is not JSON: a file, a stream). */
export function contractBreach(responses: RouteConfig['responses'], status: number, body: unknown, type: string): string | null {
  if (status < 200 || status > 299) return null;
  const declared = responses[String(status)] as { content?: Record<string, { schema?: unknown }> } | undefined;
  if (!declared) return `${status} is not a declared response`;
  if (body === undefined || body === null || typeof body === 'string' || Buffer.isBuffer(body) || body instanceof Readable) return null;
  if (!type.includes('json')) return null;
  const schema = declared.content?.['application/json']?.schema;
  if (!isCheckable(schema)) return null;
  const parsed = schema.safeParse(body);
  if (parsed.success) return null;
  return parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}

/** Every breach this process answered, for the test app to fail its suite on at close (a poll that retried past a 500 still shows). */
export const contractBreaches: string[] = [];

/**
 * Checks each 2xx JSON body against the schema its endpoint declares (api/endpoint.ts), so the tests catch a handler
 * whose answer drifted from the published document. Only with `CHECK_RESPONSE_BODIES` (the test suites set it): a
 * breach becomes a 500 `RESPONSE_CONTRACT` naming the endpoint and the fields, which fails the test that made the call.
 */
export function checkResponseContract(label: string, responses: RouteConfig['responses'], report: (breach: string) => void): Middleware {
  return async (ctx, next) => {
    await next();
    const breach = contractBreach(responses, ctx.status, ctx.body, ctx.type);
    if (!breach) return;
    contractBreaches.push(`${label}: ${breach}`);
    report(`${label}: ${breach}`);
    ctx.status = 500;
    ctx.body = { success: false, code: 'RESPONSE_CONTRACT', error: `${label}: ${breach}` };
  };
}
