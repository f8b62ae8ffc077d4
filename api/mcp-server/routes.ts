import Router from '@koa/router';
import type { Context } from 'koa';
import { errorResponse, JSONRPC_ERROR, parseMessage, type JsonRpcId } from '../../core/mcpJsonRpc';
import { secretToken } from '../../core/ids';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { authenticateMcp, checkOrigin, checkProtocolVersion, sessionIdOf } from './auth';
import { connectionStringOf } from './dedicatedConnection';
import { eventStreamHandler } from './events';
import { dispatch } from './methods';
import './openapi';
import { sendAccepted, sendFailure, sendJsonRpc } from './respond';
import { McpStreamHub } from './streamHub';

/** The request's id when the body names a usable one, so even auth failures answer the right request. */
function peekId(body: unknown): JsonRpcId | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

async function handlePost(deps: AppDeps, hub: McpStreamHub, ctx: Context): Promise<void> {
  const body = ctx.request.body;
  const id = peekId(body);
  try {
    if (ctx.request.rawBody === undefined || ctx.request.rawBody.length === 0) {
      sendJsonRpc(ctx, errorResponse(null, JSONRPC_ERROR.PARSE_ERROR, 'Parse error: the body is empty'));
      return;
    }
    checkOrigin(deps, ctx);
    const principal = await authenticateMcp(deps, ctx, ctx.params.operatorId);
    const decision = await deps.rateLimits.consume('mcp', principal.operatorId);
    if (!decision.allowed) {
      throw new AppError(429, 'RATE_LIMITED', 'Rate limit exceeded for mcp', { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
    }
    checkProtocolVersion(ctx);
    const sessionId = sessionIdOf(ctx);
    const message = parseMessage(body);
    if (message.kind === 'invalid') {
      sendJsonRpc(ctx, errorResponse(message.id, JSONRPC_ERROR.INVALID_REQUEST, `Invalid Request: ${message.reason}`));
      return;
    }
    if (message.kind !== 'request') {
      sendAccepted(ctx);
      return;
    }
    const response = await dispatch({ deps, hub, ctx, principal, sessionId }, message);
    if (message.method === 'initialize' && 'result' in response) ctx.set('Mcp-Session-Id', secretToken('mcps'));
    sendJsonRpc(ctx, response);
  } catch (error) {
    sendFailure(ctx, error, id);
  }
}

/**
 * MCP server (spec 4.6): JSON-RPC 2.0 over `POST /mcp-server` and the legacy `POST /mcp-server/<operator_id>`,
 * and the event-stream channel `GET /mcp-server/events`. `GET /mcp-server` is 405 (no standalone stream on the
 * MCP endpoint itself; the SDK client carries on without one); OPTIONS is answered by CORS and the root router.
 */
export function createMcpServerRouter(deps: AppDeps): Router {
  const hub = new McpStreamHub({
    db: deps.db,
    connectionString: connectionStringOf(deps.db),
    affinity: deps.config.MCP_CROSS_INSTANCE_AFFINITY,
    maxStreamsPerOperator: deps.config.MCP_MAX_STREAMS_PER_OPERATOR,
    logger: deps.logger,
  });
  const router = new Router({ prefix: '/mcp-server' });
  router.get('/events', eventStreamHandler(deps, hub));
  router.get('/', (ctx) => {
    ctx.set('Allow', 'POST, OPTIONS');
    sendJsonRpc(ctx, errorResponse(null, JSONRPC_ERROR.SERVICE_ERROR, 'code: METHOD_NOT_ALLOWED'), 405);
  });
  router.post('/', (ctx) => handlePost(deps, hub, ctx));
  router.post('/:operatorId', (ctx) => handlePost(deps, hub, ctx));
  return router;
}
