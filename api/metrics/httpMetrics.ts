import type { Middleware } from 'koa';
import { Histogram, type Registry } from 'prom-client';

/** Seconds; from a cached lookup to a long MCP stream. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

type Observer = { observe(value: number): void };

/**
 * Counts and times every request by method, route template and status: the `@koa/router` template that
 * matched (`/data/v1/entities/:entityType/:entityId`), never the path, so ids and names never become label
 * values; a request no route matched (the dashboard's files, 404s) is `(none)`. One histogram observe per
 * request: the labelled child is looked up in nested maps, so a request allocates no label object or key.
 */
export function httpMetrics(registry: Registry): Middleware {
  const histogram = new Histogram({
    name: 'platform_http_request_duration_seconds',
    help: 'API requests by method, route template and status: duration in seconds (_count is the number of requests)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const children = new Map<string, Map<string, Map<number, Observer>>>();
  const observerOf = (method: string, route: string, status: number): Observer => {
    let byRoute = children.get(method);
    if (!byRoute) children.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let observer = byStatus.get(status);
    if (!observer) byStatus.set(status, (observer = histogram.labels(method, route, String(status))));
    return observer;
  };
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      observerOf(ctx.method, route === undefined ? '(none)' : String(route), ctx.status).observe((performance.now() - started) / 1000);
    }
  };
}
