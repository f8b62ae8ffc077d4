import type { Context, Middleware } from 'koa';
import { errorFormatFor, type ErrorFormat } from '../areas';
import { isDependencyOutage, serviceUnavailable } from '../dependencyOutage';
import { CommandError } from '../../commands/errors';
import { REFUSAL_STATUS } from '../commandAnswers';
import { AppError } from '../errors';

const JSONRPC_CODES: Record<string, number> = {
  INVALID_JSON: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
};

function bodyFor(format: ErrorFormat, error: AppError): unknown {
  switch (format) {
    case 'text':
      return { success: false, error: error.message };
    case 'team':
      return { success: false, code: error.code, error: error.message };
    case 'oauth':
      return { error: error.code, error_description: error.message };
    case 'jsonrpc': {
      const code = JSONRPC_CODES[error.code];
      return {
        jsonrpc: '2.0',
        id: null,
        error: code !== undefined ? { code, message: error.message } : { code: -32001, message: `code: ${error.code}` },
      };
    }
    case 'coded':
      return {
        success: false,
        error: { code: error.code, message: error.message, ...(error.options.details !== undefined ? { details: error.options.details } : {}) },
      };
  }
}

/** Name, message and stack only: a pg error's `detail` can echo row values, so it stays out of the log. */
function describeForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: typeof error };
  return { name: error.name, message: error.message, code: (error as { code?: unknown }).code, stack: error.stack };
}

/**
 * Koa's own HTTP errors (e.g. from the router) carry a status and `expose`; keep their 4xx meaning. PostgreSQL or
 * Temporal out of reach (directly or as the cause of a handler's 500) is a 503 the client may retry.
 */
function fromUnknown(error: unknown): AppError {
  if (error instanceof CommandError)
    return new AppError(REFUSAL_STATUS[error.code], error.code, error.message, error.details === undefined ? {} : { details: error.details });
  if (error instanceof AppError) return error.status === 500 && isDependencyOutage(error.options.cause) ? serviceUnavailable(error.options.cause) : error;
  if (isDependencyOutage(error)) return serviceUnavailable(error);
  const status = (error as { status?: unknown }).status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
    const codes: Record<number, string> = { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 413: 'PAYLOAD_TOO_LARGE' };
    return new AppError(status, codes[status] ?? 'BAD_REQUEST', (error as Error).message);
  }
  return new AppError(500, 'INTERNAL_ERROR', 'Internal server error');
}

/**
 * The single place errors become responses: each area's body shape, `Retry-After` and other headers,
 * and 5xx bodies that never carry a stack, a query or a secret (those go to the log only).
 */
export function errorHandler(): Middleware {
  return async (ctx: Context, next) => {
    try {
      await next();
    } catch (caught) {
      const error = fromUnknown(caught);
      if (error.status >= 500 && error.options.expected) {
        ctx.state.log?.warn({ code: error.code }, error.message);
      } else if (error.status >= 500) {
        const cause = caught instanceof AppError ? (caught.options.cause ?? caught) : caught;
        ctx.state.log?.error({ err: describeForLog(cause) }, error.message);
      }
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.options.headers ?? {})) ctx.set(name, value);
      ctx.body = bodyFor(ctx.state.errorFormat ?? errorFormatFor(ctx.path), error);
    }
  };
}
