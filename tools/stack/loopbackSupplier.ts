import { startLoopbackServer, type LoopbackServer } from './loopbackServer';

export const SUPPLIER_KEY = 'bench-supplier-key';

/**
 * A KYC-like supplier on 127.0.0.1 that checks its API key and answers a small JSON document; `/ping` answers
 * without a key (a target for `action.http_request`).
 */
export function startSupplier(): Promise<LoopbackServer> {
  return startLoopbackServer(
    (request, _body, response) => {
      const authorised = request.url?.startsWith('/ping') || request.headers['x-api-key'] === SUPPLIER_KEY;
      response.writeHead(authorised ? 200 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify(authorised ? { player_ref: 'p-1', kyc_state: 'approved', checked_on: '2026-01-02T03:04:05Z' } : { error: 'unauthorised' }));
    },
    { keepAliveTimeout: 30_000 },
  );
}

/** The supplier's OpenAPI document: `kyc.status` (GET) and `verification.start` (POST) behind an API-key header. */
export function supplierDocument(url: string) {
  return {
    openapi: '3.0.3',
    info: { title: 'Bench KYC', version: '1.0.0' },
    servers: [{ url }],
    paths: {
      '/players/{player_ref}/kyc': {
        get: {
          operationId: 'getKycStatus',
          summary: 'KYC status of a player',
          parameters: [{ name: 'player_ref', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'Status' } },
        },
      },
      '/verifications': { post: { operationId: 'createVerification', summary: 'Start a verification', responses: { 200: { description: 'Started' } } } },
    },
    components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
    security: [{ key: [] }],
  };
}
