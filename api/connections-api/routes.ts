import { z } from 'zod';
import { OPENAPI_DOCUMENT_MAX_DEPTH } from '../../core/gateway/openapiDocument';
import type { AppDeps } from '../deps';
import { CodedError, jsonContent } from '../openapi/registry';
import { ok } from '../openapi/responses';
import { createConnection, getConnection, listConnectionRecords, patchConnection } from './connections';
import { createConnector, getConnector, listConnectorRecords, removeConnector } from './connectors';
import * as examples from './examples';
import { Connection, Connector, ConnectorSummary } from './schema';
import { connections } from './area';

const authErrors = {
  401: jsonContent(CodedError, 'UNAUTHORIZED: missing, invalid or revoked credentials'),
  403: jsonContent(CodedError, 'FORBIDDEN: writes need an API key or the Owner or an Admin'),
};
const badInput = jsonContent(CodedError, 'MISSING_FIELDS or VALIDATION_FAILED');
const connectorNotFound = jsonContent(CodedError, 'CONNECTOR_NOT_FOUND');
const connectionNotFound = jsonContent(CodedError, 'CONNECTION_NOT_FOUND');

connections.endpoint({
  method: 'post',
  path: '/connectors',
  summary: 'Create a connector from an OpenAPI document',
  guards: ['auth', 'manager'],
  bodyDepth: OPENAPI_DOCUMENT_MAX_DEPTH + 1,
  request: { body: { description: 'Name, provider, OpenAPI document and schemaMap', example: examples.createConnectorBody } },
  responses: {
    201: ok(Connector, 'Created', examples.connector),
    400: jsonContent(
      CodedError,
      `INVALID_OPENAPI (names the problems; a document nests at most ${OPENAPI_DOCUMENT_MAX_DEPTH} levels), MISSING_FIELDS or VALIDATION_FAILED`,
    ),
    ...authErrors,
  },
  ...createConnector,
});
connections.endpoint({
  method: 'get',
  path: '/connectors',
  summary: "List the operator's connectors",
  guards: ['auth'],
  responses: { 200: ok(z.array(ConnectorSummary), 'Newest first', examples.connectorList), ...authErrors },
  ...listConnectorRecords,
});
connections.endpoint({
  method: 'get',
  path: '/connectors/:id',
  summary: 'Get a connector with its document',
  guards: ['auth'],
  responses: { 200: ok(Connector, 'The connector', examples.connector), 400: badInput, ...authErrors, 404: connectorNotFound },
  ...getConnector,
});
connections.endpoint({
  method: 'delete',
  path: '/connectors/:id',
  summary: 'Delete a connector (its connections then answer CONNECTOR_NOT_FOUND)',
  guards: ['auth', 'manager'],
  responses: {
    200: ok(z.object({ id: z.string(), deleted: z.literal(true) }), 'Deleted', examples.connectorDeleted),
    400: badInput,
    ...authErrors,
    404: connectorNotFound,
  },
  ...removeConnector,
});

connections.endpoint({
  method: 'post',
  path: '/connections',
  summary: 'Create a connection (credentials are stored encrypted)',
  guards: ['auth', 'manager'],
  request: { body: { description: 'Connector, name, credentials, base URL, active', example: examples.createConnectionBody } },
  responses: { 201: ok(Connection, 'Created', examples.connection), 400: badInput, ...authErrors, 404: connectorNotFound },
  ...createConnection,
});
connections.endpoint({
  method: 'get',
  path: '/connections',
  summary: "List the operator's connections",
  guards: ['auth'],
  responses: { 200: ok(z.array(Connection), 'Newest first', examples.connectionList), ...authErrors },
  ...listConnectionRecords,
});
connections.endpoint({
  method: 'get',
  path: '/connections/:id',
  summary: 'Get a connection (never its credentials)',
  guards: ['auth'],
  responses: { 200: ok(Connection, 'The connection', examples.connection), 400: badInput, ...authErrors, 404: connectionNotFound },
  ...getConnection,
});
connections.endpoint({
  method: 'patch',
  path: '/connections/:id',
  summary: 'Rename, re-key, re-point or (de)activate a connection',
  guards: ['auth', 'manager'],
  request: { body: { description: 'Fields to change; credentials are replaced as a whole', example: examples.updateConnectionBody } },
  responses: { 200: ok(Connection, 'Updated', examples.connectionUpdated), 400: badInput, ...authErrors, 404: connectionNotFound },
  ...patchConnection,
});

export const createConnectionsApiRouter = (deps: AppDeps) => connections.router(deps);
