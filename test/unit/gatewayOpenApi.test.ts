import { InvalidOpenApiError, loadOpenApiDocument } from '../../core/gateway/openapiDocument';
import { startProvider } from '../helpers/providerServer';
import { kycDocument, paymentsSwaggerYaml } from '../helpers/suppliers';

async function problemsOf(input: unknown): Promise<string[]> {
  try {
    await loadOpenApiDocument(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOpenApiError);
    return (error as InvalidOpenApiError).problems;
  }
  throw new Error('expected the document to be refused');
}

describe('loadOpenApiDocument', () => {
  it('indexes an OpenAPI 3 object: operations with merged $ref parameters, security, server URL', async () => {
    const { document, blueprint } = await loadOpenApiDocument(kycDocument('http://127.0.0.1:9999', { kind: 'apiKeyHeader', name: 'X-Api-Key', value: 'k' }));
    expect(document.openapi).toBe('3.0.3');
    expect(blueprint.specification).toBe('OpenAPI');
    expect(blueprint.serverUrl).toBe('http://127.0.0.1:9999/v1');
    expect(blueprint.securitySchemes).toEqual({ supplierAuth: { kind: 'apiKey', name: 'X-Api-Key', in: 'header' } });
    expect(blueprint.security).toEqual([{ supplierAuth: [] }]);
    expect(blueprint.operations.map((operation) => `${operation.method} ${operation.path} ${operation.operationId}`)).toEqual([
      'GET /players/{player_ref}/kyc getKycStatus',
      'POST /verifications createVerification',
      'GET /verifications/{verification_id} getVerification',
      'DELETE /verifications/{verification_id} cancelVerification',
    ]);
    expect(blueprint.operations[0]!.parameters).toEqual([{ name: 'player_ref', in: 'path', required: true }]);
  });

  it('accepts JSON text and Swagger 2.0 YAML text (host, basePath, basic auth, body parameters ignored)', async () => {
    const fromJson = await loadOpenApiDocument(JSON.stringify(kycDocument('https://kyc.example', { kind: 'bearer', token: 't' })));
    expect(fromJson.blueprint.securitySchemes).toEqual({ supplierAuth: { kind: 'bearer' } });

    const { blueprint } = await loadOpenApiDocument(paymentsSwaggerYaml('http://127.0.0.1:8123', { kind: 'basic', username: 'u', password: 'p' }));
    expect(blueprint.specification).toBe('Swagger');
    expect(blueprint.serverUrl).toBe('http://127.0.0.1:8123/api');
    expect(blueprint.securitySchemes).toEqual({ supplierAuth: { kind: 'basic' } });
    expect(blueprint.operations.find((operation) => operation.operationId === 'createPayment')!.parameters).toEqual([]);
    expect(blueprint.operations.find((operation) => operation.operationId === 'listPayments')!.parameters.map((parameter) => parameter.name)).toEqual([
      'state',
      'limit',
    ]);
  });

  it('recognises HMAC schemes (http hmac, or an X-Signature apiKey header)', async () => {
    const oas = await loadOpenApiDocument(kycDocument('http://h', { kind: 'hmac', secret: 's' }));
    expect(oas.blueprint.securitySchemes.supplierAuth).toEqual({ kind: 'hmac' });
    const swagger = await loadOpenApiDocument(paymentsSwaggerYaml('http://h:1', { kind: 'hmac', secret: 's' }));
    expect(swagger.blueprint.securitySchemes.supplierAuth).toEqual({ kind: 'hmac' });
  });

  it('keeps a relative server URL out (the connection must give a base URL) and substitutes server variables', async () => {
    const base = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} };
    expect((await loadOpenApiDocument({ ...base, servers: [{ url: '/v2' }] })).blueprint.serverUrl).toBeNull();
    const withVariables = { ...base, servers: [{ url: 'https://{region}.pay.example/v1', variables: { region: { default: 'eu' } } }] };
    expect((await loadOpenApiDocument(withVariables)).blueprint.serverUrl).toBe('https://eu.pay.example/v1');
  });

  it('names the problems of an invalid document, with the source line', async () => {
    const problems = await problemsOf({
      openapi: '3.0.3',
      info: { title: 'x' },
      paths: { '/a/{id}': { get: { parameters: [{ name: 'id', in: 'path' }], responses: { 200: { description: 'ok' } } } } },
    });
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/must have required property 'version' \(at line \d+: "info": \{\)/)]));
    expect(problems.some((problem) => problem.includes("'required'"))).toBe(true);
  });

  it('refuses text that is not JSON or YAML, non-objects and non-API documents', async () => {
    expect((await problemsOf('openapi: [unclosed'))[0]).toMatch(/^not valid JSON or YAML/);
    expect(await problemsOf('- just\n- a list')).toEqual(['the document must be an object (OpenAPI 3.x or Swagger 2.0)']);
    expect(await problemsOf({ hello: 'world' })).toEqual(['Supplied schema is not a valid API definition.']);
  });

  it('never fetches external $refs or reads files', async () => {
    const server = await startProvider(() => ({ status: 200, body: { description: 'remote' } }));
    try {
      const document = {
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {
          '/a': { get: { responses: { 200: { $ref: `${server.url}/response.json` } } } },
          '/b': { get: { responses: { 200: { $ref: '/etc/passwd' } } } },
        },
      };
      const { blueprint } = await loadOpenApiDocument(document);
      expect(blueprint.operations).toHaveLength(2);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
