import type { Context } from 'koa';
import type { z } from 'zod';

/** What OpenAPI can show as path, query or header parameters: an object, or an object behind a transform. */
export type ParameterSchema = z.ZodObject | z.ZodPipe;

/** The request parts validated before the handler runs, which gets them parsed as its `input`; each is also documented. */
export interface EndpointInput {
  params?: ParameterSchema;
  query?: ParameterSchema;
  body?: z.ZodType;
}

/** Each declared part as its schema parses it. */
export type InputOf<I extends EndpointInput> = { [K in keyof I]-?: I[K] extends z.ZodType ? z.output<I[K]> : never };

/**
 * The request as it came, for the few handlers that must see it unvalidated and say so in their declaration
 * (`raw: ['bytes']`): a signature computed over the exact bytes, a transport (MCP) or form post (OAuth) that
 * answers malformed input in its own protocol, a body checked item by item later (batches) or handed whole to the
 * command that validates it.
 */
export interface RawRequest {
  /** The parsed JSON (or form) body; `undefined` when there was none. */
  body: unknown;
  query: Record<string, string | string[] | undefined>;
  params: Record<string, string | undefined>;
  /** The body's exact bytes. */
  bytes: Buffer | undefined;
}
export type RawPart = keyof RawRequest;

/**
 * The one argument of every handler, typed from its declaration: `input` from the endpoint's `input`, `principal`
 * from the area's `principal` reader (the credentials the area accepts), `deps` what the area's `setup` builds (the
 * app's deps by default), `raw` only the parts the endpoint declared in `raw`, and `ctx` for the answer (status,
 * body, headers).
 */
export interface HandlerArgs<S, P, I extends EndpointInput, R extends RawPart> {
  deps: S;
  ctx: Context;
  input: InputOf<I>;
  principal: P;
  raw: Pick<RawRequest, R>;
}

export type Handler<S, P, I extends EndpointInput, R extends RawPart> = (args: HandlerArgs<S, P, I, R>) => unknown;

/** What a handler reads, declared beside it (`area.handler({ input: { params: IdParams } }, …)`). */
export interface HandlerDeclaration<I extends EndpointInput, R extends RawPart> {
  input?: I;
  raw?: readonly R[];
}

/** A handler bound to its declaration, spread into its endpoint (`area.endpoint({ …, ...getEntity })`). */
export type DeclaredHandler<S, P, I extends EndpointInput, R extends RawPart> = HandlerDeclaration<I, R> & { handle: Handler<S, P, I, R> };

function rawOf(ctx: Context, parts: readonly RawPart[]): Partial<RawRequest> {
  const raw: Partial<RawRequest> = {};
  for (const part of parts) {
    if (part === 'body') raw.body = ctx.request.body;
    else if (part === 'query') raw.query = ctx.request.query;
    else if (part === 'params') raw.params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
    else raw.bytes = ctx.request.rawBody;
  }
  return raw;
}

/**
 * The argument a route hands its handler. `principal` is read when the handler reads it (a public endpoint of an
 * authenticated area never does), so an endpoint that reads a caller without authenticating fails loudly.
 */
export function handlerArgs<S, P>(
  ctx: Context,
  deps: S,
  readPrincipal: ((ctx: Context) => P) | undefined,
  raw: readonly RawPart[] = [],
): HandlerArgs<S, P, EndpointInput, RawPart> {
  return {
    deps,
    ctx,
    input: (ctx.state.input ?? {}) as InputOf<EndpointInput>,
    get principal(): P {
      if (!readPrincipal) throw new Error(`${ctx.method} ${ctx.path}: the handler read a principal its area does not declare`);
      return readPrincipal(ctx);
    },
    raw: rawOf(ctx, raw) as RawRequest,
  };
}
