import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { commentFrame } from '../../core/mcpEvents';
import { isValidSessionId } from '../../core/mcpJsonRpc';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { authenticateMcp, checkOrigin } from './auth';
import { sendFailure } from './respond';
import type { McpStreamHub } from './streamHub';

function prepareEventStream(ctx: Context): void {
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-cache, no-transform');
  ctx.set('X-Accel-Buffering', 'no');
}

function sessionParam(ctx: Context): string | undefined {
  const value = ctx.query.session;
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !isValidSessionId(value)) {
    throw new AppError(400, 'INVALID_REQUEST', 'session must be one value of 1 to 128 visible ASCII characters');
  }
  return value;
}

/**
 * `GET /mcp-server/events?session=<id>` (spec 4.6): a `text/event-stream` of `notifications/progress` frames for
 * the calls this operator sends with `Mcp-Session-Id: <id>`, a `: ping` comment every `MCP_HEARTBEAT_MS`, and a
 * first comment once the stream is registered (so a client knows frames will reach it). Without a session, one
 * comment frame and the end of the response. A stream beyond `MCP_MAX_STREAMS_PER_OPERATOR` is 429
 * `MCP_SESSION_LIMIT_EXCEEDED`.
 */
export function eventStreamHandler(deps: AppDeps, hub: McpStreamHub) {
  return async (ctx: Context): Promise<void> => {
    try {
      checkOrigin(deps, ctx);
      const principal = await authenticateMcp(deps, ctx);
      const sessionId = sessionParam(ctx);
      if (sessionId === undefined) {
        prepareEventStream(ctx);
        ctx.body = commentFrame('no session: open /mcp-server/events?session=<id> and send calls with Mcp-Session-Id: <id> to receive progress');
        return;
      }
      const stream = new PassThrough();
      const release = await hub.open(principal.operatorId, sessionId, { write: (frame) => void stream.write(frame) });
      if (!release) {
        const limit = deps.config.MCP_MAX_STREAMS_PER_OPERATOR;
        throw new AppError(429, 'MCP_SESSION_LIMIT_EXCEEDED', `At most ${limit} concurrent event streams per operator`, { headers: { 'Retry-After': '5' } });
      }
      const heartbeat = setInterval(() => stream.write(commentFrame('ping')), deps.config.MCP_HEARTBEAT_MS);
      heartbeat.unref();
      const cleanup = () => {
        clearInterval(heartbeat);
        release();
      };
      ctx.res.once('close', cleanup);
      stream.once('close', cleanup);
      if (ctx.res.destroyed || ctx.req.socket.destroyed) {
        cleanup();
        return;
      }
      ctx.req.socket.setTimeout(0);
      ctx.req.socket.setNoDelay(true);
      prepareEventStream(ctx);
      stream.write(commentFrame('stream open'));
      ctx.body = stream;
    } catch (error) {
      sendFailure(ctx, error, null);
    }
  };
}
