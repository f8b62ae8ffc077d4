import { sha256Hex } from '../apiKeyToken';
import { stableStringify } from '../stableJson';

/**
 * The request an Idempotency-Key of `POST /gateway` is bound to: connection, operation and params, hashed from JSON
 * with sorted keys, so a retry that orders its params differently is the same request and one with any other value is
 * not. Absent and null params are the empty object, as the gateway sends them.
 */
export function gatewayRequestHash(call: { connectionId: string; operation: string; params?: Record<string, unknown> | null }): string {
  return sha256Hex(stableStringify({ connectionId: call.connectionId, operation: call.operation, params: call.params ?? {} }));
}

/**
 * What a caller hears of a POST or PATCH that went out and whose answer never came, the same text every time it asks:
 * sending it again could act twice at the supplier, so the way forward is reading the call, not retrying.
 */
export function outcomeUnknownMessage(callId: string): string {
  return `Call ${callId} was sent to the provider and its outcome is not known yet; do not retry it: read it at GET /gateway/calls/${callId}`;
}
