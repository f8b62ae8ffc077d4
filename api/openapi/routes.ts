import Router from '@koa/router';
import { buildOpenApiDocument } from './registry';

/** `GET /openapi.json`: the document generated from the registered zod schemas (built once, on first request). */
export function createOpenApiRouter(): Router {
  const router = new Router();
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  router.get('/openapi.json', (ctx) => {
    document ??= buildOpenApiDocument();
    ctx.body = document;
  });
  return router;
}
