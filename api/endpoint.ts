import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { declareBodyDepth, declareErrorFormat, declareInputError, type ErrorFormat, type InputError } from './areas';
import type { AppDeps } from './deps';
import { defaultValidationError, validate } from './middleware/validate';
import { jsonContent, registry } from './openapi/registry';
import {
  handlerArgs,
  type DeclaredHandler,
  type HandlerArgs,
  type EndpointInput,
  type Handler,
  type HandlerDeclaration,
  type ParameterSchema,
  type RawPart,
} from './handler';
import { checkResponseContract } from './responseContract';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Security = NonNullable<RouteConfig['security']>;

export type { EndpointInput, InputOf } from './handler';

/** The JSON body as the document shows it; `schema` defaults to the validated `input.body`. */
export interface DocumentedBody {
  schema?: z.ZodType;
  description: string;
  example?: unknown;
}

/**
 * What the document shows beyond `input`: parts the handler reads itself (or never validates), a documented
 * shape that differs from the validated one, headers, and the body's description and example.
 */
export interface DocumentedRequest {
  params?: ParameterSchema;
  query?: ParameterSchema;
  headers?: ParameterSchema;
  body?: DocumentedBody;
}

/**
 * One endpoint: its route, the middleware it runs, its handler and its OpenAPI operation. `S` is what the
 * area hands every handler (the app's deps unless the area builds something else), `G` the names of its guards,
 * `P` the caller its `principal` reader returns, `I` its validated input and `R` the raw parts it declares.
 */
export interface Endpoint<S, G extends string, P = undefined, I extends EndpointInput = EndpointInput, R extends RawPart = never> {
  method: Method;
  /** Koa path under the area prefix (`/entities/:externalId`); `/` is the prefix itself. */
  path: string;
  /**
   * The operation's documented fields (`summary`, `description`, `security`, …) are published in the order they
   * are written here; `security` defaults to the area's, `'none'` documents a public operation (`security: []`).
   */
  summary: string;
  description?: string;
  security?: Security | 'none';
  /** The area's guards this route runs, in order, before validation (auth, role checks, rate limits). */
  guards?: readonly G[];
  input?: I;
  /** The request parts the handler reads unvalidated (`HandlerArgs.raw`): each is an exception `docs/openapi-and-fuzzing.md` names. */
  raw?: readonly R[];
  /**
   * The 4xx a validation failure becomes; defaults to the area's, then `defaultValidationError`. On a literal path it
   * also shapes the body parser's refusals (too deep, a number out of range); on a parameterised one those are the area's.
   */
  inputError?: InputError;
  /** The error body of this endpoint when it differs from its area's (the token endpoint among identity's). */
  errorFormat?: ErrorFormat;
  /** How deeply this endpoint's JSON body may nest when it needs more than `JSON_MAX_DEPTH` (a literal path only). */
  bodyDepth?: number;
  request?: DocumentedRequest;
  responses: RouteConfig['responses'];
  /** Gets `{ deps, ctx, input, principal, raw }` typed from this declaration and the area's. */
  handle: Handler<S, P, I, R>;
}

export interface AreaOptions<S, G extends string, P> {
  /** The router prefix (`/operator-data-api`); none for root paths such as `/healthz`. */
  prefix?: string;
  /** What every handler gets as its first argument, built once per app; the app's deps when absent. */
  setup?: (deps: AppDeps) => S;
  /** Middleware every route of the area runs first, as `router.use` (an area-wide authentication), built once per app. */
  use?: (setup: S, deps: AppDeps) => Middleware[];
  /** The middleware endpoints name in `guards`, built once per app. */
  guards?: (setup: S, deps: AppDeps) => Record<G, Middleware>;
  security?: Security;
  inputError?: InputError;
  /** The error body every path under the prefix speaks, also before routing (`api/areas.ts`); `coded` when absent. */
  errorFormat?: ErrorFormat;
  /**
   * Reads the caller the area's authentication put on the request, typed as the credentials it accepts: the one
   * place an area says who its handlers serve (`principal` in `HandlerArgs`).
   */
  principal?: (ctx: Context) => P;
}

export interface Area<S, G extends string, P = undefined> {
  /** Registers the endpoint's OpenAPI operation now and keeps its route for `router`. */
  endpoint<I extends EndpointInput = Record<never, never>, R extends RawPart = never>(spec: Endpoint<S, G, P, I, R>): void;
  /**
   * A handler written in its own file with what it reads, typed from the area without repeating a schema; its
   * endpoint spreads it (`area.endpoint({ method, path, …, ...getEntity })`).
   */
  handler<I extends EndpointInput = Record<never, never>, R extends RawPart = never>(
    declaration: HandlerDeclaration<I, R>,
    handle: Handler<S, P, I, R>,
  ): DeclaredHandler<S, P, I, R>;
  /**
   * The area's router, every route in declaration order — Koa tries matching routes in that order, so a literal
   * path (`/events`) is declared before a parameterised one of the same method (`/:operatorId`).
   */
  router(deps: AppDeps): Router;
}

const OPERATION_FIELDS = new Set(['summary', 'description', 'security']);

/** A route as `router` mounts it: the endpoint with its handler's input type forgotten, as Koa passes no types along. */
type Route<S, G extends string> = Omit<Endpoint<S, G>, 'handle' | 'raw'> & {
  raw?: readonly RawPart[];
  handle: (args: HandlerArgs<S, unknown, EndpointInput, RawPart>) => unknown;
};

/** `/gateway` + `/` → `/gateway`. */
const fullPath = (prefix: string, path: string) => (path === '/' && prefix ? prefix : `${prefix}${path}`);

/** `/gateway` + `/` → `/gateway`; `:id` → `{id}`. */
function documentedPath(prefix: string, path: string): string {
  return fullPath(prefix, path).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function requestOf(label: string, input: EndpointInput = {}, request: DocumentedRequest = {}): RouteConfig['request'] {
  const documented: NonNullable<RouteConfig['request']> = {};
  const params = request.params ?? input.params;
  const query = request.query ?? input.query;
  if (params) documented.params = params;
  if (query) documented.query = query;
  if (request.headers) documented.headers = request.headers;
  if (input.body && !request.body) throw new Error(`${label}: a validated body needs request.body (its description and example)`);
  if (request.body) {
    const schema = request.body.schema ?? input.body;
    if (!schema) throw new Error(`${label}: request.body has no schema and nothing is validated`);
    documented.body = jsonContent(schema, request.body.description, request.body.example);
  }
  return Object.keys(documented).length > 0 ? documented : undefined;
}

function register(prefix: string, areaSecurity: Security | undefined, spec: Route<unknown, string>): void {
  const path = documentedPath(prefix, spec.path);
  const operation: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) if (OPERATION_FIELDS.has(key) && value !== undefined) operation[key] = value;
  if (operation.security === undefined && areaSecurity) operation.security = areaSecurity;
  if (operation.security === 'none') operation.security = [];
  const request = requestOf(`${spec.method.toUpperCase()} ${path}`, spec.input, spec.request);
  registry.registerPath({ method: spec.method, path, ...operation, ...(request ? { request } : {}), responses: spec.responses });
}

/**
 * An area declared once: each `endpoint` is both a Koa route and an OpenAPI operation, so neither can be added
 * or changed without the other. Declarations run at import (the document is complete without starting the
 * app); everything a request needs — guards, validators, the handler's first argument — is built once by
 * `router`, so a route runs exactly its guards, its validator and its handler.
 *
 * @example
 * const area = defineArea({ prefix: '/gateway', guards: (deps) => ({ auth: authenticate(deps, options) }) });
 * area.endpoint({ method: 'post', path: '/', summary: 'Call a supplier', guards: ['auth'], responses, handler: execute });
 * export const createGatewayRouter = (deps: AppDeps) => area.router(deps);
 */
export function defineArea<S = AppDeps, G extends string = never, P = undefined>(options: AreaOptions<S, G, P>): Area<S, G, P> {
  const prefix = options.prefix ?? '';
  if (options.errorFormat) declareErrorFormat(prefix, options.errorFormat);
  if (options.inputError) declareInputError(prefix, options.inputError);
  const endpoints: Array<Route<S, G>> = [];
  return {
    handler(declaration, handle) {
      return { ...declaration, handle };
    },
    endpoint(declared) {
      const spec = declared as unknown as Route<S, G>;
      register(prefix, options.security, spec as Route<unknown, string>);
      const literal = !spec.path.includes(':');
      if (spec.errorFormat) {
        if (!literal) throw new Error(`${spec.path}: an error format is declared for a literal path or a whole area`);
        declareErrorFormat(fullPath(prefix, spec.path), spec.errorFormat);
      }
      if (spec.bodyDepth !== undefined) {
        if (!literal) throw new Error(`${spec.path}: a body depth is declared for a literal path`);
        declareBodyDepth(fullPath(prefix, spec.path), spec.bodyDepth);
      }
      if (spec.inputError && literal) declareInputError(fullPath(prefix, spec.path), spec.inputError);
      endpoints.push(spec);
    },
    router(deps) {
      const setup = options.setup ? options.setup(deps) : (deps as S);
      const router = new Router(prefix ? { prefix } : {});
      for (const middleware of options.use?.(setup, deps) ?? []) router.use(middleware);
      const guards = options.guards?.(setup, deps) ?? ({} as Record<G, Middleware>);
      for (const spec of endpoints) {
        const stack: Middleware[] = (spec.guards ?? []).map((name) => guards[name]);
        if (deps.config.CHECK_RESPONSE_BODIES)
          stack.unshift(
            checkResponseContract(`${spec.method.toUpperCase()} ${fullPath(prefix, spec.path)}`, spec.responses, (breach) =>
              deps.logger.error({ breach }, 'response breaks its declared schema'),
            ),
          );
        if (spec.input) stack.push(validate(spec.input, spec.inputError ?? options.inputError ?? defaultValidationError));
        const { handle, raw } = spec;
        stack.push((ctx) => handle(handlerArgs(ctx, setup, options.principal, raw)));
        (router as unknown as Record<Method, (path: string, ...middleware: Middleware[]) => Router>)[spec.method](spec.path, ...stack);
      }
      return router;
    },
  };
}
