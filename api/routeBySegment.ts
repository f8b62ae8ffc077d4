import Router, { type AllowedMethodsOptions } from '@koa/router';
import type { Middleware } from 'koa';

/** A layer's literal first path segment: `gateway` of `/gateway/:connectionId`, `operator-data-api` of `/operator-data-api(…)`. */
const FIRST_SEGMENT = /^\/([\w.~-]+)(?=[/({]|$)/;

const firstSegmentOf = (path: string) => {
  const end = path.indexOf('/', 1);
  return path.slice(1, end === -1 ? undefined : end);
};

/**
 * Every area's routes behind one lookup of the request's first path segment, each segment served by a router holding
 * all the layers that start with it, then its `allowedMethods`: a request is matched against its own area's dozen
 * routes rather than every route of the API (@koa/router tests each layer's pattern in turn), and 405 still sees
 * all of its path's methods, since no path can match a layer of another segment. A path whose segment no route
 * starts with goes on, unrouted, to the 404 around it. The lookup is case-sensitive on purpose: @koa/router matches a
 * route case-insensitively but runs an area's `use` middleware (its authentication) only under the prefix's own case,
 * so `/OPERATOR-DATA-API/…` reached a handler without it (a 500, test/integration/foundation.test.ts).
 */
export function routeBySegment(routers: Router[], allowed: AllowedMethodsOptions): Middleware {
  const areas = new Map<string, Set<Router>>();
  for (const router of routers) {
    for (const layer of router.stack) {
      const segment = FIRST_SEGMENT.exec(String(layer.path))?.[1];
      if (!segment) throw new Error(`the route ${String(layer.path)} starts with no literal segment to be routed by`);
      areas.set(segment, (areas.get(segment) ?? new Set()).add(router));
    }
  }
  const bySegment = new Map<string, Middleware>();
  for (const [segment, owners] of areas) {
    const root = new Router();
    for (const router of owners) root.use(router.routes());
    // Typed for a context that already has the `params` and `router` the router itself adds.
    const routes = root.routes() as unknown as Middleware;
    const methods = root.allowedMethods(allowed) as unknown as Middleware;
    bySegment.set(segment, (ctx, next) => routes(ctx, () => methods(ctx, next)));
  }
  return (ctx, next) => {
    const area = bySegment.get(firstSegmentOf(ctx.path));
    return area ? area(ctx, next) : next();
  };
}
