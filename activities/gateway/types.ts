import type { SecurityScheme } from '../../core/gateway/blueprint';
import type { RequestPlan } from '../../core/gateway/requestPlan';
import type { SchemaMap } from '../../core/gateway/schemaMap';

/** One gateway call in the canonical format (spec 4.3); `action.gateway` of the workflow engine sends the same. */
export interface GatewayCallInput {
  operatorId: string;
  connectionId: string;
  /** `entity.action`, e.g. `player.verify`. */
  operation: string;
  /** Canonical params, translated through the connector's schemaMap before sending. */
  params?: Record<string, unknown>;
}

/** Per-call limits chosen by the caller (from its configuration); workflows cannot read the environment. */
export interface GatewayLimits {
  timeoutMs: number;
  maxAttempts: number;
}

/** The matched endpoint and everything needed to send to it, without credentials (this travels through workflow history). */
export interface PreparedGatewayCall {
  plan: RequestPlan;
  /** The provider's origin (`https://kyc.example:443`): the circuit breaker's key together with the operator. */
  provider: string;
  securitySchemes: Record<string, SecurityScheme>;
  schemaMap: SchemaMap;
}

export interface SendGatewayRequestInput extends GatewayCallInput {
  prepared: PreparedGatewayCall;
  limits: GatewayLimits;
  /** GET, PUT and DELETE may be retried; a POST or PATCH is sent at most once. */
  idempotent: boolean;
}

/** The outcome of a call that reached the provider (or tried to): 2xx is `ok`, anything else a provider error. */
export type GatewayCallResult =
  | { ok: true; status: number; data: unknown; providerLatencyMs: number; attempts: number }
  | { ok: false; status: number | null; data: unknown; message: string; providerLatencyMs: number; attempts: number };
