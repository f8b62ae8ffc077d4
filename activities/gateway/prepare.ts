import { ApplicationFailure } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { GatewayFailureCode } from '../../core/gateway/failures';
import { matchOperation } from '../../core/gateway/operationMatcher';
import { buildRequestPlan } from '../../core/gateway/requestPlan';
import { toProviderFields } from '../../core/gateway/schemaMap';
import type { Db } from '../../db/knex';
import { findConnectionForCall, type ConnectionForCall } from '../../db/queries/connections';
import { findConnectorBlueprint } from '../../db/queries/connectors';
import type { GatewayCallInput } from '../../core/workflowContracts';
import type { GatewayCaches } from './caches';
import { recordGatewayCall } from './record';
import type { ConnectorBlueprint, ResolvedGatewayCall } from './types';

const IDEMPOTENT_METHODS = new Set(['GET', 'PUT', 'DELETE']);

/** GET, PUT and DELETE may be sent again after a failed attempt; POST and PATCH never. */
export const isIdempotentMethod = (method: string) => IDEMPOTENT_METHODS.has(method);

interface PrepareDeps {
  db: Db;
  logger: Logger;
  /** Connectors by id (they never change once created; a deleted one is noticed through its connection). */
  connectors: Map<string, ConnectorBlueprint>;
  /** The worker's connections in memory; every call reads through without them. */
  caches?: GatewayCaches;
}

const CONNECTOR_CACHE_SIZE = 500;

function connectionOf(deps: PrepareDeps, operatorId: string, connectionId: string): Promise<ConnectionForCall | undefined> {
  const load = () => findConnectionForCall(deps.db, operatorId, connectionId);
  return deps.caches ? deps.caches.connections.get(`${operatorId}:${connectionId}`, load) : load();
}

async function connectorOf(deps: PrepareDeps, operatorId: string, connectorId: string): Promise<ConnectorBlueprint | undefined> {
  const cached = deps.connectors.get(connectorId);
  if (cached) return cached;
  const row = await findConnectorBlueprint(deps.db, operatorId, connectorId);
  if (!row) return undefined;
  if (deps.connectors.size >= CONNECTOR_CACHE_SIZE) deps.connectors.delete(deps.connectors.keys().next().value as string);
  deps.connectors.set(connectorId, row);
  return row;
}

/**
 * Resolves a call before anything is sent (spec 4.3 processing order): the operator's active
 * connection, its connector and OpenAPI blueprint, params translated through the schemaMap, the
 * best-matching endpoint and the request plan. A refusal is recorded as `gateway.request.failed` and
 * thrown as a non-retryable failure whose type is the spec code.
 */
export async function prepareGatewayCall(deps: PrepareDeps, input: GatewayCallInput): Promise<ResolvedGatewayCall> {
  const refuse = async (code: GatewayFailureCode, message: string, method: string | null = null, path: string | null = null): Promise<never> => {
    await recordGatewayCall(deps, { ...input, method, path, status: null, latencyMs: 0, ok: false, code });
    throw ApplicationFailure.create({ type: code, message, nonRetryable: true });
  };

  const connection = await connectionOf(deps, input.operatorId, input.connectionId);
  if (!connection) return refuse('CONNECTION_NOT_FOUND', `Connection ${input.connectionId} not found`);
  if (!connection.active) return refuse('CONNECTION_INACTIVE', `Connection ${connection.id} is not active`);
  const connector = connection.connector_id && connection.connector_found ? await connectorOf(deps, input.operatorId, connection.connector_id) : undefined;
  if (!connector) return refuse('CONNECTOR_NOT_FOUND', `The connector of connection ${connection.id} no longer exists`);
  const blueprint = connector.blueprint;
  if (!blueprint) return refuse('BLUEPRINT_NO_SPEC', `Connector ${connector.id} has no OpenAPI spec`);

  const params = toProviderFields(input.params ?? {}, connector.schema_map) as Record<string, unknown>;
  const match = matchOperation(blueprint.operations, input.operation, Object.keys(params));
  if (!match) return refuse('OPERATION_NOT_FOUND', `No endpoint of connector ${connector.id} matches operation '${input.operation}'`);
  const { method, path } = match.operation;
  const baseUrl = connection.base_url ?? blueprint.serverUrl;
  if (!baseUrl) throw ApplicationFailure.create({ type: 'BASE_URL_MISSING', message: 'The connection has no base URL', nonRetryable: true });

  const planned = buildRequestPlan(match.operation, params, baseUrl, blueprint.security);
  if (!planned.ok) return refuse('MISSING_FIELDS', `Missing params for ${method} ${path}: ${planned.missing.join(', ')}`, method, path);
  return {
    prepared: {
      plan: planned.plan,
      provider: new URL(planned.plan.baseUrl).origin,
      securitySchemes: blueprint.securitySchemes,
      schemaMap: connector.schema_map,
    },
    sealedCredentials: connection.credentials_ciphertext,
  };
}
