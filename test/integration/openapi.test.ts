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
    const missing = servedRoutes().filter((route) => !documented.has(route) && route !== 'GET /openapi.json');
    expect(missing).toEqual([]);
  });
});
