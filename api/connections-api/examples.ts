/** Examples of the connections document (connections-api/routes.ts); test/integration/openapi-examples.test.ts validates them. */
const connectorId = 'cnr_2f7a9c4e1b8d6053a9e2c7f4b1d8e6a3';
const connectionId = 'conn_5e8b2d7f1a4c9e3b6d0f8a2c7e5b1d94';
const createdAt = '2026-03-14T10:02:17.441Z';

const verikycDocument = {
  openapi: '3.0.3',
  info: { title: 'VeriKYC', version: '1' },
  servers: [{ url: 'https://kyc.example/v1' }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
  security: [{ key: [] }],
  paths: {
    '/players/{player_ref}/kyc': {
      get: {
        operationId: 'getKycStatus',
        summary: 'KYC status of a player',
        parameters: [{ name: 'player_ref', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};
const schemaMap = { playerId: 'player_ref', status: 'kyc_state' };

export const createConnectorBody = { name: 'VeriKYC', provider: 'verikyc', openapi: verikycDocument, schemaMap };

const connectorSummary = {
  id: connectorId,
  name: 'VeriKYC',
  provider: 'verikyc',
  hasSpec: true,
  specification: 'OpenAPI',
  serverUrl: 'https://kyc.example/v1',
  operationCount: 1,
  schemaMap,
  createdAt,
  updatedAt: createdAt,
};

export const connector = {
  success: true,
  data: {
    ...connectorSummary,
    operations: [{ method: 'GET', path: '/players/{player_ref}/kyc', operationId: 'getKycStatus', summary: 'KYC status of a player' }],
    securitySchemes: { key: { kind: 'apiKey', name: 'X-Api-Key', in: 'header' } },
    openapi: verikycDocument,
  },
};

export const connectorList = { success: true, data: [connectorSummary] };
export const connectorDeleted = { success: true, data: { id: connectorId, deleted: true } };

export const createConnectionBody = {
  connectorId,
  name: 'KYC live',
  credentials: { apiKey: 'vk_live_8c2e6a0f4b9d3e7a' },
  baseUrl: 'https://kyc.example/v1',
  active: true,
};

const connectionRecord = { id: connectionId, connectorId, name: 'KYC live', baseUrl: 'https://kyc.example/v1', active: true, createdAt, updatedAt: createdAt };

export const connection = { success: true, data: connectionRecord };
export const connectionList = { success: true, data: [connectionRecord] };
export const updateConnectionBody = { active: false };
export const connectionUpdated = { success: true, data: { ...connectionRecord, active: false, updatedAt: '2026-03-15T16:45:02.930Z' } };
