import type Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { createAnalyticsRouter } from './analytics-api/routes';
import { createApiKeysRouter } from './api-keys/routes';
import { createAuthRouter } from './auth/routes';
import { createConnectionsApiRouter } from './connections-api/routes';
import { dashboardFor } from './dashboard/static';
import type { AppDeps } from './deps';
import { AppError } from './errors';
import { createGatewayRouter } from './gateway/routes';
import { createHealthRouter } from './health/routes';
import { createMcpServerRouter } from './mcp-server/routes';
import { createOAuthRouter, createWellKnownRouter } from './oauth/routes';
import { corsFor } from './middleware/cors';
import { bodyBudget, bodyBuckets } from './middleware/bodyBudget';
import { errorHandler } from './middleware/errorHandler';
import { jsonBody } from './middleware/jsonBody';
import { requestContext } from './middleware/requestContext';
import { routeBySegment } from './routeBySegment';
import { stripFunctionsPrefix } from './middleware/stripFunctionsPrefix';
import { createOpenApiRouter } from './openapi/routes';
import { createOperatorDataRouter } from './operator-data-api/routes';
import { createPlatformApiRouter } from './platform-api/routes';
import { isTemporalCodecPath, temporalCodecCors } from './temporal-codec/cors';
import { createTemporalCodecRouter } from './temporal-codec/routes';
import { createWebhookReceiverRouter, WEBHOOK_RECEIVER_PREFIX } from './webhook-receiver/routes';
import { createAutomationsRouter } from './automations/routes';

const methodNotAllowed = () => new AppError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');

/** Runs outside the routers: a request no route answered is 404 `NOT_FOUND` in the area's error shape. */
const notFound: Middleware = async (ctx, next) => {
  await next();
  if (ctx.status === 404 && ctx.body === undefined) throw new AppError(404, 'NOT_FOUND', 'Route not found');
};

/** Every area's router; each area adds itself here as it lands. */
export function createRouters(deps: AppDeps): Router[] {
  return [
    createHealthRouter(deps),
    createOpenApiRouter(),
    createAuthRouter(deps),
    createApiKeysRouter(deps),
    createOperatorDataRouter(deps),
    createPlatformApiRouter(deps),
    createGatewayRouter(deps),
    createConnectionsApiRouter(deps),
    createAnalyticsRouter(deps),
    createAutomationsRouter(deps),
    createWebhookReceiverRouter(deps),
    createMcpServerRouter(deps),
    createWellKnownRouter(deps),
    createOAuthRouter(deps),
    createTemporalCodecRouter(deps),
  ];
}

/**
 * Composes the API: prefix → request id and access log → CORS → errors → the organisation's body byte budget → JSON body → 404 → the dashboard's static
 * files (never on an API path) → the routes, found by the path's first segment (so 405 sees all of a path's methods).
 *
 * @example const server = createApp(deps).listen(8080)
 */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa({ proxy: deps.config.TRUST_PROXY });
  app.silent = true;
  app.use(stripFunctionsPrefix());
  app.use(requestContext(deps.logger));
  if (deps.metrics) app.use(deps.metrics.http);
  app.use(corsFor(deps.config.allowedOrigins, isTemporalCodecPath));
  app.use(temporalCodecCors(deps.config.TEMPORAL_UI_URL));
  app.use(errorHandler());
  app.use(bodyBudget(deps, bodyBuckets(deps.config)));
  app.use(jsonBody(deps.config.BODY_LIMIT_BYTES, (path) => path.startsWith(`${WEBHOOK_RECEIVER_PREFIX}/`)));
  app.use(notFound);
  const routers = createRouters(deps);
  app.use(dashboardFor(deps.config, routers));
  app.use(routeBySegment(routers, { throw: true, methodNotAllowed, notImplemented: methodNotAllowed }));
  return app;
}
