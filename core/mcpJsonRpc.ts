/**
 * JSON-RPC 2.0 framing for the MCP server (spec 4.6, 7.6): classifying a posted body, and building
 * results and errors. Pure — the HTTP route decides statuses with `httpStatusOf`.
 */

export const MCP_PROTOCOL_VERSION = '2025-06-18';

/**
 * Versions a client may name in `MCP-Protocol-Version`. `initialize` answers 2025-06-18 (spec 9), or 2025-11-25 to a
 * client asking for it; older revisions share the HTTP framing; 2026-07-28 requests are stateless (core/mcpRevision.ts).
 */
export const ACCEPTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-06-18', '2025-03-26', '2024-11-05', '2025-11-25', '2026-07-28'];

export const JSONRPC_ERROR = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SERVICE_ERROR: -32001,
} as const;

export type JsonRpcId = string | number;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse = { jsonrpc: '2.0'; id: JsonRpcId; result: unknown } | { jsonrpc: '2.0'; id: JsonRpcId | null; error: JsonRpcErrorObject };

export type ParsedMessage =
  | { kind: 'request'; id: JsonRpcId; method: string; params: Record<string, unknown> | unknown[] | undefined }
  | { kind: 'notification'; method: string; params: Record<string, unknown> | unknown[] | undefined }
  /** A client's answer to a server request (the only ones this server sends: a task's approval forms). */
  | { kind: 'response'; id: JsonRpcId | null; result: unknown; error: unknown }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/**
 * Classifies a parsed request body. Batches (arrays) are refused: MCP 2025-06-18 removed JSON-RPC batching.
 *
 * @example parseMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }) // { kind: 'request', id: 1, method: 'ping', params: undefined }
 */
export function parseMessage(body: unknown): ParsedMessage {
  if (Array.isArray(body)) return { kind: 'invalid', id: null, reason: 'batch requests are not supported' };
  if (!isPlainObject(body)) return { kind: 'invalid', id: null, reason: 'the body must be a JSON-RPC 2.0 object' };
  const id = isId(body.id) ? body.id : null;
  if (body.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'jsonrpc must be "2.0"' };
  if ('id' in body && !isId(body.id)) return { kind: 'invalid', id: null, reason: 'id must be a string or a number' };
  if (!('method' in body)) {
    if ('id' in body && ('result' in body || 'error' in body)) return { kind: 'response', id, result: body.result, error: body.error };
    return { kind: 'invalid', id, reason: 'method is required' };
  }
  if (typeof body.method !== 'string' || body.method === '') return { kind: 'invalid', id, reason: 'method must be a non-empty string' };
  const params = body.params;
  if (params !== undefined && typeof params !== 'object') return { kind: 'invalid', id, reason: 'params must be an object' };
  if (params === null) return { kind: 'invalid', id, reason: 'params must be an object' };
  const typedParams = params as Record<string, unknown> | unknown[] | undefined;
  if (id === null) return { kind: 'notification', method: body.method, params: typedParams };
  return { kind: 'request', id, method: body.method, params: typedParams };
}

export function resultResponse(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result };
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

/** A service code (spec 7.6) as JSON-RPC: `-32001` with `code: <CODE>` in the message. */
export function serviceErrorResponse(id: JsonRpcId | null, serviceCode: string, data?: unknown): JsonRpcResponse {
  return errorResponse(id, JSONRPC_ERROR.SERVICE_ERROR, `code: ${serviceCode}`, data);
}

/**
 * The HTTP status a protocol error travels with (DESIGN.md "Resolved ambiguities"): parse error and invalid
 * request 400, method not found and invalid params 200, internal error 500. Service codes carry their own.
 */
export function httpStatusOf(code: number): number {
  if (code === JSONRPC_ERROR.PARSE_ERROR || code === JSONRPC_ERROR.INVALID_REQUEST) return 400;
  if (code === JSONRPC_ERROR.INTERNAL_ERROR) return 500;
  return 200;
}

/** Protocol errors by the platform's AppError codes (errorHandler speaks the same mapping). */
const PROTOCOL_CODES: Record<string, number> = {
  INVALID_JSON: JSONRPC_ERROR.PARSE_ERROR,
  INVALID_REQUEST: JSONRPC_ERROR.INVALID_REQUEST,
  METHOD_NOT_FOUND: JSONRPC_ERROR.METHOD_NOT_FOUND,
  INVALID_PARAMS: JSONRPC_ERROR.INVALID_PARAMS,
  INTERNAL_ERROR: JSONRPC_ERROR.INTERNAL_ERROR,
};

/**
 * An application error code as a JSON-RPC error: protocol codes keep their number and message, anything
 * else is a service code.
 *
 * @example errorForAppCode(7, 'AUTH_MISSING', 'Authorization header is required').error // { code: -32001, message: 'code: AUTH_MISSING' }
 */
export function errorForAppCode(id: JsonRpcId | null, appCode: string, message: string): JsonRpcResponse {
  const code = PROTOCOL_CODES[appCode];
  return code === undefined ? serviceErrorResponse(id, appCode) : errorResponse(id, code, message);
}

/** `Mcp-Session-Id` values: visible ASCII only (MCP transport rules), bounded so they fit a NOTIFY payload. */
const SESSION_ID_PATTERN = /^[\x21-\x7E]{1,128}$/;

export function isValidSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}

/** `_meta.progressToken` of a request's params, when present and well-typed. */
export function progressTokenOf(params: Record<string, unknown>): { token?: JsonRpcId; invalid?: true } {
  const meta = params._meta;
  if (meta === undefined) return {};
  if (!isPlainObject(meta)) return { invalid: true };
  const token = meta.progressToken;
  if (token === undefined) return {};
  return isId(token) ? { token } : { invalid: true };
}

/**
 * The request a `notifications/cancelled` names (`params.requestId`), or null when it names none usable; MCP has
 * the receiver ignore such a notification.
 *
 * @example cancelledRequestOf({ requestId: 3, reason: 'user aborted' }) // 3
 */
export function cancelledRequestOf(params: Record<string, unknown> | unknown[] | undefined): JsonRpcId | null {
  if (!isPlainObject(params)) return null;
  return isId(params.requestId) ? params.requestId : null;
}

/**
 * What identifies one `tools/call` of a client for cancellation: its session and its JSON-RPC id (MCP has a client
 * never reuse an id within a session). `1` and `"1"` stay distinct, and no session id holds a space.
 *
 * @example mcpRequestKey('mcps_abc', 7) // 'mcps_abc 7'
 */
export function mcpRequestKey(sessionId: string, requestId: JsonRpcId): string {
  return `${sessionId} ${JSON.stringify(requestId)}`;
}

export { isPlainObject };
