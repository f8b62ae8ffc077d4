import type { Blueprint, SecurityScheme } from '../../core/gateway/blueprint';
import type { RequestPlan } from '../../core/gateway/requestPlan';
import type { SchemaMap } from '../../core/gateway/schemaMap';
import type { GatewayCallInput, GatewayLimits } from '../../core/workflowContracts';

/** The matched endpoint and everything needed to send to it; credentials are read and decrypted only when sending. */
export interface PreparedGatewayCall {
  plan: RequestPlan;
  /** The provider's origin (`https://kyc.example:443`): the circuit breaker's key together with the operator. */
  provider: string;
  securitySchemes: Record<string, SecurityScheme>;
  schemaMap: SchemaMap;
}

/** The connector's side of a call; connectors never change once created, so workers keep them by id. */
export interface ConnectorBlueprint {
  id: string;
  blueprint: Blueprint | null;
  schema_map: SchemaMap;
}

/** A call ready to send, kept in the activity's process (never in workflow history): the plan and the sealed credentials. */
export interface ResolvedGatewayCall {
  prepared: PreparedGatewayCall;
  sealedCredentials: string;
}

export interface SendGatewayRequestInput extends GatewayCallInput, ResolvedGatewayCall {
  limits: GatewayLimits;
  /** GET, PUT and DELETE may be retried; a POST or PATCH is sent at most once. */
  idempotent: boolean;
}
