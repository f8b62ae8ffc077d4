import type { Context } from 'koa';
import { commentFrame } from '../../core/mcpEvents';
import { errorResponse, isValidSessionId } from '../../core/mcpJsonRpc';
import { MODERN_REVISION } from '../../core/mcpRevision';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { authenticateMcp, checkOrigin, checkProtocolVersion, sessionIdOf } from './auth';
import { acceptsEventStream, EventStreamResponse } from './eventStreamResponse';
import { sendFailure, sendJsonRpc } from './respond';
import type { RawRequest } from '../handler';
import { mcp } from './area';
import type { McpStreamHub } from './streamHub';

function sessionParam(query: RawRequest['query']): string | undefined {
  const value = query.session;
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !isValidSessionId(value)) {
    throw new AppError(400, 'INVALID_REQUEST', 'session must be one value of 1 to 128 visible ASCII characters');
  }
  return value;
}

/**
 * Takes one of the operator's stream slots and answers with the stream: a first comment once it is registered (so a
 * client knows frames will reach it), `: ping` every `MCP_HEARTBEAT_MS`, the hub's frames, and the slot given back
 * when the client leaves. No free slot is 429 `MCP_SESSION_LIMIT_EXCEEDED`.
 */
async function serveHubStream(deps: AppDeps, hub: McpStreamHub, ctx: Context, operatorId: string, sessionId: string | null): Promise<void> {
  const response = new EventStreamResponse();
  const release = await hub.open(operatorId, sessionId, response);
  if (!release) {
    const limit = deps.config.MCP_MAX_STREAMS_PER_OPERATOR;
    throw new AppError(429, 'MCP_SESSION_LIMIT_EXCEEDED', `At most ${limit} concurrent event streams per operator`, { headers: { 'Retry-After': '5' } });
  }
  response.onClose(release);
  response.write(commentFrame('stream open'));
  response.serve(ctx, deps.config.MCP_HEARTBEAT_MS);
}

/**
 * `GET /mcp-server/events?session=<id>` (spec 4.6): a `text/event-stream` of `notifications/progress` frames for
 * the calls this operator sends with `Mcp-Session-Id: <id>`, and `notifications/tools/list_changed` when its tool
 * list changes. Without a session, one comment frame and the end of the response. A stream beyond
 * `MCP_MAX_STREAMS_PER_OPERATOR` is 429 `MCP_SESSION_LIMIT_EXCEEDED`.
 */
export const eventStreamHandler = mcp.handler({ raw: ['query'] }, async ({ deps: { deps, hub }, ctx, raw }) => {
  try {
    checkOrigin(deps, ctx);
    const principal = await authenticateMcp(deps, ctx);
    const sessionId = sessionParam(raw.query);
    if (sessionId === undefined) {
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      ctx.set('Cache-Control', 'no-cache, no-transform');
      ctx.set('X-Accel-Buffering', 'no');
      ctx.body = commentFrame('no session: open /mcp-server/events?session=<id> and send calls with Mcp-Session-Id: <id> to receive progress');
      return;
    }
    await serveHubStream(deps, hub, ctx, principal.operatorId, sessionId);
  } catch (error) {
    sendFailure(ctx, error, null);
  }
});

/**
 * `GET /mcp-server` (and the legacy `/mcp-server/<operator_id>`): the MCP Streamable HTTP transport's standalone
 * stream, which the SDK client opens after `initialize`. It carries `notifications/tools/list_changed` only —
 * progress travels on the `tools/call` answer itself or on the spec's channel, never twice to one client — and
 * shares the operator's stream slots with the spec's channel. A client that does not accept `text/event-stream`
 * is 406.
 */
export const standaloneStreamHandler = mcp.handler({ raw: ['params'] }, async ({ deps: { deps, hub }, ctx, raw }) => {
  try {
    checkOrigin(deps, ctx);
    const principal = await authenticateMcp(deps, ctx, raw.params.operatorId);
    checkProtocolVersion(ctx);
    if (ctx.get('MCP-Protocol-Version') === MODERN_REVISION) {
      // 2026-07-28 is stateless: no standalone stream to open.
      ctx.set('Allow', 'POST');
      sendJsonRpc(ctx, errorResponse(null, -32000, 'Method not allowed.'), 405);
      return;
    }
    sessionIdOf(ctx);
    if (!acceptsEventStream(ctx)) throw new AppError(406, 'NOT_ACCEPTABLE', 'GET /mcp-server answers text/event-stream only');
    await serveHubStream(deps, hub, ctx, principal.operatorId, null);
  } catch (error) {
    sendFailure(ctx, error, null);
  }
});
