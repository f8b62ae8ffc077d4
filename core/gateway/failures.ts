/**
 * The gateway's refusals (spec 7.3 plus `DESTINATION_NOT_ALLOWED`): activities throw them as
 * non-retryable `ApplicationFailure`s whose `type` is the code; callers map the code to its HTTP status.
 */
export const GATEWAY_FAILURE_STATUS = {
  MISSING_FIELDS: 400,
  CONNECTION_INACTIVE: 400,
  BLUEPRINT_NO_SPEC: 400,
  DESTINATION_NOT_ALLOWED: 400,
  CONNECTION_NOT_FOUND: 404,
  CONNECTOR_NOT_FOUND: 404,
  OPERATION_NOT_FOUND: 404,
  GATEWAY_CALL_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_MISMATCH: 422,
  RATE_LIMITED: 429,
  CIRCUIT_OPEN: 503,
  GATEWAY_OUTCOME_UNKNOWN: 504,
} as const;

export type GatewayFailureCode = keyof typeof GATEWAY_FAILURE_STATUS;

export function isGatewayFailureCode(value: unknown): value is GatewayFailureCode {
  return typeof value === 'string' && Object.hasOwn(GATEWAY_FAILURE_STATUS, value);
}

/** Spec 3.6 and 8: how long an open circuit refuses calls, and the `Retry-After` it sends. */
export const CIRCUIT_OPEN_SECONDS = 30;
