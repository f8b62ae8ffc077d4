import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import { buildOpenApiDocument } from './registry';

/** The reference page's assets, served from the `swagger-ui-dist` npm package (no CDN: the page works offline). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Operator Platform API</title><link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true });</script>
</body>
</html>`;

/**
 * `GET /openapi.json`: the document generated from the registered zod schemas (built once, on first
 * request); `GET /docs`: a readable reference page of it (Swagger UI).
 */
export function createOpenApiRouter(): Router {
  const router = new Router();
  const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  router.get('/openapi.json', (ctx) => {
    document ??= buildOpenApiDocument();
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  // A plain router, not an area: it serves the document and Swagger UI's files by name, outside every operation.
  router.get('/docs/:asset', async (ctx, next) => {
    const asset = ctx.params.asset ?? ''; // eslint-disable-line no-restricted-syntax -- a file name, checked against ASSETS
    const type = ASSETS[asset];
    if (!type) return next();
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await readFile(path.join(assetsDir, asset));
  });
  return router;
}
