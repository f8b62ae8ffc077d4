import type { Context } from 'koa';
import { errorForAppCode, errorResponse, httpStatusOf, JSONRPC_ERROR, type JsonRpcId, type JsonRpcResponse } from '../../core/mcpJsonRpc';
import { isDependencyOutage, serviceUnavailable } from '../dependencyOutage';
import { AppError } from '../errors';

/** Writes a JSON-RPC response; an error's HTTP status follows DESIGN.md unless `status` is given (service codes). */
export function sendJsonRpc(ctx: Context, response: JsonRpcResponse, status?: number): void {
  ctx.status = status ?? ('error' in response ? httpStatusOf(response.error.code) : 200);
  ctx.type = 'application/json';
  ctx.body = response;
}

/** 202 with no body: the answer to a notification or to a client's JSON-RPC response. */
export function sendAccepted(ctx: Context): void {
  ctx.body = null;
  ctx.status = 202;
}

/**
 * Any failure of an MCP route as a JSON-RPC error carrying the request's id when it is known: an AppError keeps
 * its HTTP status and headers (service codes as `-32001 code: <CODE>`), PostgreSQL or Temporal out of reach is 503
 * `code: SERVICE_UNAVAILABLE` with `Retry-After`; anything else is logged and becomes
 * `-32603` with HTTP 500 and no detail.
 */
export function sendFailure(ctx: Context, caught: unknown, id: JsonRpcId | null): void {
  const error = !(caught instanceof AppError && caught.status < 500) && isDependencyOutage(caught) ? serviceUnavailable(caught) : caught;
  if (error instanceof AppError && (error.status < 500 || error.code === 'SERVICE_UNAVAILABLE')) {
    if (error.status >= 500)
      ctx.state.log?.warn({ err: { message: (error.options.cause as Error | undefined)?.message } }, 'MCP request met a dependency outage');
    for (const [name, value] of Object.entries(error.options.headers ?? {})) ctx.set(name, value);
    sendJsonRpc(ctx, errorForAppCode(id, error.code, error.message), error.status);
    return;
  }
  const cause = error instanceof AppError ? (error.options.cause ?? error) : error;
  const described = cause instanceof Error ? { name: cause.name, message: cause.message, stack: cause.stack } : { value: typeof cause };
  ctx.state.log?.error({ err: described }, 'MCP request failed');
  sendJsonRpc(ctx, errorResponse(id, JSONRPC_ERROR.INTERNAL_ERROR, 'Internal error'), 500);
}
