import { compileErrors, validate } from '@readme/openapi-parser';
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
      const path = String(layer.path)
        .replace(/:([A-Za-z0-9_]+)/g, '{$1}')
        .replace(/(.)\/$/, '$1');
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

  it('gives every operation its security, an explicit [] when public, and at least one error response', () => {
    const operations = Object.entries(buildOpenApiDocument().paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item ?? {}).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, ...(operation as any) })),
    );
    expect(operations.filter((operation) => operation.security === undefined).map((operation) => operation.route)).toEqual([]);
    expect(
      operations.filter((operation) => !Object.keys(operation.responses).some((status) => Number(status) >= 400)).map((operation) => operation.route),
    ).toEqual([]);
    expect(operations.filter((operation) => operation.security.length === 0).map((operation) => operation.route)).toEqual([
      'POST /auth/v1/signup',
      'POST /auth/v1/token',
      'GET /healthz',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-protected-resource/mcp-server',
      'GET /.well-known/oauth-authorization-server',
      'GET /.well-known/openid-configuration',
      'GET /oauth/authorize',
      'POST /oauth/token',
      'POST /oauth/revoke',
      'POST /oauth/register',
      'GET /platform-api/invites/lookup',
      'POST /platform-api/invites/accept',
      'DELETE /temporal-codec/session',
    ]);
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (validated by @readme/openapi-parser), the same one the registry builds', async () => {
    const response = await fetch(`${app.url}/functions/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const served = (await response.json()) as { openapi: string };
    expect(served).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    const result = await validate(JSON.parse(JSON.stringify(served)));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(served.openapi).toBe('3.1.0');
  });

  it('names the /functions/v1 server, the four security schemes and the area error shapes', () => {
    const document = buildOpenApiDocument() as any;
    expect(document.servers[0].url).toBe('/functions/v1');
    expect(document.components.securitySchemes).toEqual(
      expect.objectContaining({
        apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        session: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
        webhookSignature: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Service-Signature' }),
        standardWebhooks: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'webhook-signature' }),
      }),
    );
    const errorRef = (path: string, method: string, status: string) => document.paths[path][method].responses[status].content['application/json'].schema.$ref;
    expect(errorRef('/api-keys', 'delete', '404')).toBe('#/components/schemas/TextError');
    expect(errorRef('/platform-api/operators/me/members/{id}', 'patch', '404')).toBe('#/components/schemas/TeamError');
    expect(errorRef('/auth/v1/token', 'post', '400')).toBe('#/components/schemas/OAuthError');
    expect(errorRef('/gateway', 'post', '404')).toBe('#/components/schemas/CodedError');
    expect(errorRef('/api-keys', 'post', '413')).toBe('#/components/schemas/TextError');
    expect(errorRef('/operator-data-api/entities', 'post', '415')).toBe('#/components/schemas/CodedError');
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
