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

/**
 * How far a POST or PATCH got, kept by its sender for the caller that claimed its call id: nothing `dispatched` means no
 * byte can have reached the supplier (its key may be used again); dispatched but not `answered` means the supplier
 * may have acted and nobody knows how.
 */
export interface Delivery {
  dispatched: boolean;
  answered: boolean;
}

export interface SendGatewayRequestInput extends GatewayCallInput, ResolvedGatewayCall {
  limits: GatewayLimits;
  /** GET, PUT and DELETE may be retried; a POST or PATCH is sent at most once. */
  idempotent: boolean;
  delivery?: Delivery;
}
