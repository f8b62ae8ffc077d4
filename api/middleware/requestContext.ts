import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Assigns a request id (the caller's `X-Request-Id` when well-formed) and writes one access-log line
 * per request. Only the path is logged, never the query string, headers or body: invite tokens and
 * keys travel there.
 */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    // The request's child logger is made when something logs, not for every request.
    let log: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', { get: () => (log ??= logger.child({ requestId })), enumerable: true, configurable: true });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        // Who acted: the operator, and the member (session, dashboard credential) or the API key.
        const auth = ctx.state.auth as { operatorId?: string; memberId?: string; credential?: string; keyId?: string } | undefined;
        (ctx.state.log as Logger).info(
          {
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            durationMs: Math.round(durationMs * 10) / 10,
            operatorId: auth?.operatorId,
            memberId: auth?.memberId,
            credential: auth?.credential,
            keyId: auth?.keyId,
          },
          'request',
        );
      }
    }
  };
}
