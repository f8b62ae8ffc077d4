import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import '../../api/app';
import { buildOpenApiDocument } from '../../api/openapi/registry';

type MediaType = { schema?: unknown; example?: unknown };
type Content = Record<string, MediaType>;
type Operation = { requestBody?: { content?: Content }; responses?: Record<string, { content?: Content }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/** Operations whose success answer is not JSON, so there is nothing to give an example of. */
const NO_JSON_SUCCESS = new Set([
  'GET /mcp-server', // text/event-stream (list changes)
  'GET /mcp-server/{operatorId}', // text/event-stream (list changes)
  'GET /mcp-server/events', // text/event-stream
  'POST /auth/v1/logout', // 204, no body
  'DELETE /temporal-codec/session', // 204, no body
  'GET /oauth/authorize', // 302 to the consent page or back to the host
  'DELETE /oauth/hosts/{id}', // 204, no body
  'GET /analytics-api/analytics/audiences/{id}/export', // text/csv, streamed
]);

const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Document;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation })),
);

/** Every JSON media type that carries a schema, labelled `METHOD /path <where>`. */
function jsonMediaTypes(): Array<{ label: string; media: MediaType }> {
  return operations.flatMap(({ label, operation }) => [
    ...(operation.requestBody?.content?.['application/json']
      ? [{ label: `${label} requestBody`, media: operation.requestBody.content['application/json'] }]
      : []),
    ...Object.entries(operation.responses ?? {}).flatMap(([status, response]) =>
      response.content?.['application/json'] ? [{ label: `${label} ${status}`, media: response.content['application/json'] }] : [],
    ),
  ]);
}

/**
 * Ajv for the document's JSON Schema dialect (OpenAPI 3.1 is draft 2020-12), with the components
 * registered under the id their `$ref`s resolve against.
 */
function validatorFor(schema: unknown) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: document.components }, 'openapi.json');
  const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));
  return ajv.compile(rebased as object);
}

describe('OpenAPI examples', () => {
  it('has at least the 62 documented operations to check', () => {
    expect(operations.length).toBeGreaterThanOrEqual(62);
  });

  it('gives every JSON request body an example', () => {
    const missing = operations
      .filter(({ operation }) => operation.requestBody?.content?.['application/json'])
      .filter(({ operation }) => operation.requestBody?.content?.['application/json']?.example === undefined)
      .map(({ label }) => label);
    expect(missing).toEqual([]);
  });

  it('gives every 2xx JSON response an example, and every operation but the non-JSON ones a 2xx JSON example', () => {
    const missing = operations.flatMap(({ label, operation }) =>
      Object.entries(operation.responses ?? {})
        .filter(
          ([status, response]) =>
            status.startsWith('2') && response.content?.['application/json'] && response.content['application/json'].example === undefined,
        )
        .map(([status]) => `${label} ${status}`),
    );
    expect(missing).toEqual([]);
    const withoutExample = operations
      .filter(
        ({ operation }) =>
          !Object.entries(operation.responses ?? {}).some(
            ([status, response]) => status.startsWith('2') && response.content?.['application/json']?.example !== undefined,
          ),
      )
      .map(({ label }) => label);
    expect(withoutExample.sort()).toEqual([...NO_JSON_SUCCESS].sort());
  });

  it('validates every media-type example against its own schema (ajv, draft 2020-12)', () => {
    const checked = jsonMediaTypes().filter(({ media }) => media.example !== undefined && media.schema !== undefined);
    expect(checked.length).toBeGreaterThan(80);
    const failures = checked.flatMap(({ label, media }) => {
      const validate = validatorFor(media.schema);
      return validate(media.example) ? [] : [`${label}: ${JSON.stringify(validate.errors)}`];
    });
    expect(failures).toEqual([]);
  });

  it('rejects an example that does not match, formats included (the check has teeth)', () => {
    const body = document.paths['/operator-data-api/entities/{externalId}/events']?.post?.requestBody?.content?.['application/json'];
    expect(body?.schema).toBeDefined();
    const validate = validatorFor(body?.schema);
    expect(validate({ eventType: 'transaction', data: 'not an object' })).toBe(false);
    expect(validatorFor({ $ref: '#/components/schemas/CodedError' })({ success: true })).toBe(false);
    const key = {
      id: 'not-a-uuid',
      operatorId: '3f6c2a8e-5b1d-4c7a-9e2f-8d4b6a1c0e53',
      keyHash: 'ab',
      label: '',
      createdAt: '',
      lastUsedAt: null,
      revoked: false,
      mcp_enabled: false,
      mcp_workflow_allowlist: null,
    };
    expect(validatorFor({ $ref: '#/components/schemas/ApiKeyRecord' })(key)).toBe(false);
  });
});
