import type { IncomingMessage, RequestOptions } from 'node:http';
import type * as Instrumentation from '@opentelemetry/instrumentation';
import type * as HttpInstrumentation from '@opentelemetry/instrumentation-http';
import type * as PgInstrumentation from '@opentelemetry/instrumentation-pg';
import type * as UndiciInstrumentation from '@opentelemetry/instrumentation-undici';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as TraceNode from '@opentelemetry/sdk-trace-node';

/* eslint-disable @typescript-eslint/no-require-imports -- the SDK loads only when tracing is configured: about 100 ms of start-up otherwise spent for nothing */
const sdk = () => ({
  instrumentation: require('@opentelemetry/instrumentation') as typeof Instrumentation,
  http: require('@opentelemetry/instrumentation-http') as typeof HttpInstrumentation,
  pg: require('@opentelemetry/instrumentation-pg') as typeof PgInstrumentation,
  undici: require('@opentelemetry/instrumentation-undici') as typeof UndiciInstrumentation,
  otlp: require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp,
  resources: require('@opentelemetry/resources') as typeof Resources,
  traceNode: require('@opentelemetry/sdk-trace-node') as typeof TraceNode,
});
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * What the Temporal worker needs to export workflow spans itself: workflow code runs in an isolate without the
 * SDK, and hands its spans to the worker through a sink (`worker/worker.ts`).
 */
export interface Tracing {
  resource: Resources.Resource;
  spanProcessor: TraceNode.SpanProcessor;
  /** Flushes the spans still batched and stops exporting; the process calls it last. */
  shutdown(): Promise<void>;
}

/** Probes and scrapes: one span each every few seconds would bury the requests worth reading. */
const UNTRACED_PATHS = new Set(['/healthz', '/metrics']);

/** A path without its query string: invite tokens, keys and suppliers' credentials travel there (docs/security.md). */
const pathOf = (target: string | null | undefined) => (target ?? '/').split('?')[0]!;

/**
 * URL attributes without the query: the instrumentations record whole URLs, and a collector is no place for the
 * secrets the access log already leaves out (api/middleware/requestContext.ts).
 */
const incomingUrl = (request: IncomingMessage) => ({
  'http.target': pathOf(request.url),
  'http.url': `http://${request.headers.host ?? 'localhost'}${pathOf(request.url)}`,
});
const outgoingUrl = (options: RequestOptions) => {
  const url = `${options.protocol ?? 'http:'}//${options.hostname ?? options.host ?? 'localhost'}${options.port ? `:${options.port}` : ''}${pathOf(options.path)}`;
  return { 'http.target': pathOf(options.path), 'http.url': url, 'url.full': url };
};

let instrumented = false;
let active: Tracing | undefined;

/**
 * Whether spans go anywhere: tracing is on only with the standard OTLP endpoint variables, so a process without
 * them loads no SDK, patches no library and pays nothing.
 */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/**
 * Hooks the libraries whose work a trace should show: `http` (the API's server spans and the HTTP action's and
 * gateway's outbound requests), undici (`fetch`) and `pg` (every query). The hooks patch a module when it is
 * required, so this runs before anything requires them (`core/tracingPreload.ts`); spans go to whatever provider
 * `startTracing` registers later. No koa instrumentation: a span per middleware would cost a span on each of them for
 * every request and say little the server span (method, path, status) does not.
 */
export function instrumentLibraries(): void {
  if (instrumented || !tracingConfigured()) return;
  instrumented = true;
  const { instrumentation, http, pg, undici } = sdk();
  instrumentation.registerInstrumentations({
    instrumentations: [
      new http.HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => UNTRACED_PATHS.has(pathOf(request.url)),
        startIncomingSpanHook: incomingUrl,
        startOutgoingSpanHook: outgoingUrl,
      }),
      new undici.UndiciInstrumentation({
        startSpanHook: (request) => ({ 'url.full': `${request.origin}${pathOf(request.path)}`, 'url.query': '' }),
      }),
      new pg.PgInstrumentation({ requireParentSpan: true }),
    ],
  });
}

/**
 * Starts exporting this process's spans over OTLP/HTTP to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`), as `OTEL_SERVICE_NAME` or `defaultServiceName`. Does nothing and
 * returns undefined without an endpoint; a second call returns the first one's tracing.
 */
export function startTracing(defaultServiceName: string): Tracing | undefined {
  if (active || !tracingConfigured()) return active;
  instrumentLibraries();
  const { otlp, resources, traceNode } = sdk();
  const resource = new resources.Resource({ 'service.name': process.env.OTEL_SERVICE_NAME?.trim() || defaultServiceName });
  const spanProcessor = new traceNode.BatchSpanProcessor(new otlp.OTLPTraceExporter());
  const provider = new traceNode.NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  active = { resource, spanProcessor, shutdown: () => provider.shutdown() };
  return active;
}

/** The tracing `startTracing` started in this process, if any: the Temporal client and worker add their interceptors then. */
export function activeTracing(): Tracing | undefined {
  return active;
}
