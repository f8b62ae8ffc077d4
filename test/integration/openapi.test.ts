import { createRouters } from '../../api/app';
import { buildOpenApiDocument } from '../../api/openapi/registry';
import { startTestApp, type TestApp } from '../helpers/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** Every served route, as `METHOD /path/{param}`, read from the routers the app mounts. */
function servedRoutes(): string[] {
  const routes = new Set<string>();
  for (const router of createRouters(app.deps)) {
    for (const layer of router.stack) {
      const path = String(layer.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/(.)\/$/, '$1');
      for (const method of layer.methods) if (method !== 'HEAD') routes.add(`${method} ${path}`);
    }
  }
  return [...routes].sort();
}

describe('OpenAPI document', () => {
  it('documents every route the app serves', () => {
    const document = buildOpenApiDocument();
    const documented = new Set(
      Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.keys(item ?? {}).map((method) => `${method.toUpperCase()} ${path}`)),
    );
    expect(servedRoutes()).toEqual(expect.arrayContaining(['POST /api-keys', 'PATCH /api-keys/{id}/mcp', 'POST /auth/v1/token']));
    const undocumentable = new Set(['GET /openapi.json', 'GET /docs', 'GET /docs/{asset}']);
    const missing = servedRoutes().filter((route) => !documented.has(route) && !undocumentable.has(route));
    expect(missing).toEqual([]);
  });
});

describe('GET /docs', () => {
  it('serves a reference page and its assets from the local package', async () => {
    const page = await fetch(`${app.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('/openapi.json');
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']) {
      expect(html).toContain(asset);
      const response = await fetch(`${app.url}${asset}`);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    expect((await fetch(`${app.url}/docs/package.json`)).status).toBe(404);
  });
});
