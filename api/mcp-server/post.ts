import type { Context } from 'koa';
import { messageFrame } from '../../core/mcpEvents';
import { cancelledRequestOf, errorResponse, isPlainObject, JSONRPC_ERROR, mcpRequestKey, parseMessage, type JsonRpcId } from '../../core/mcpJsonRpc';
import { claimsModern, isRevisionProblem, revisionOf, type Revision } from '../../core/mcpRevision';
import { newSessionId } from '../../core/mcpSession';
import { AppError } from '../errors';
import { authenticateMcp, checkOrigin, checkProtocolVersion, sessionIdOf, type McpPrincipal } from './auth';
import { acceptsEventStream, EventStreamResponse } from './eventStreamResponse';
import type { DispatchContext } from './dispatchContext';
import { dispatch, type McpRequest } from './methods';
import { sendAccepted, sendFailure, sendJsonRpc } from './respond';
import { answerTaskInput } from './taskInput';
import type { McpServices } from './services';
import { mcp } from './area';

/** The request's id when the body names a usable one, so even auth failures answer the right request. */
function peekId(body: unknown): JsonRpcId | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/**
 * Answers a request: as JSON, or — once the method opened a stream (a `tools/call` streaming its progress) — as
 * the last frame of that stream, which then ends. A request its client cancelled ends its stream without an answer
 * (MCP cancellation); a failure after the stream opened becomes a `-32603` frame, the HTTP status being sent.
 */
async function answer(
  services: McpServices,
  ctx: Context,
  principal: McpPrincipal,
  sessionId: string | undefined,
  revision: Revision,
  request: McpRequest,
): Promise<void> {
  const { deps, hub, cancellation } = services;
  let stream: EventStreamResponse | undefined;
  let opened: () => void = () => undefined;
  const streamOpened = new Promise<'stream'>((resolve) => {
    opened = () => resolve('stream');
  });
  const context: DispatchContext = {
    deps,
    hub,
    cancellation,
    ctx,
    principal,
    sessionId,
    revision,
    openStream: acceptsEventStream(ctx)
      ? () => {
          stream = new EventStreamResponse();
          stream.serve(ctx, deps.config.MCP_HEARTBEAT_MS);
          opened();
          return stream;
        }
      : undefined,
    log: (error) => ctx.state.log?.warn({ err: { name: error.name, message: error.message } }, 'MCP progress frame not published'),
  };
  const answered = dispatch(context, request);
  await Promise.race([answered, streamOpened]);
  const own = stream;
  if (!own) {
    const { response, status } = await answered;
    if (request.method === 'initialize' && 'result' in response) ctx.set('Mcp-Session-Id', newSessionId(isPlainObject(request.params) ? request.params : {}));
    // 2026-07-28 answers an unknown method with 404, as its servers do; the spec's revision keeps 200.
    const unknown = revision.modern && 'error' in response && response.error.code === JSONRPC_ERROR.METHOD_NOT_FOUND;
    sendJsonRpc(ctx, response, unknown ? 404 : status);
    return;
  }
  answered
    .then(({ response, cancelled }) => {
      if (!cancelled) own.write(messageFrame(response));
    })
    .catch((error: Error) => {
      ctx.state.log?.error({ err: { name: error.name, message: error.message, stack: error.stack } }, 'MCP request failed');
      own.write(messageFrame(errorResponse(request.id, JSONRPC_ERROR.INTERNAL_ERROR, 'Internal error')));
    })
    .finally(() => own.end());
}

/** A 2026-07-28 header value, decoded when the client had to send it as `=?base64?…?=` (not plain ASCII). */
function headerValue(ctx: Context, name: string): string | undefined {
  const value = ctx.get(name);
  if (value === '') return undefined;
  const encoded = /^=\?base64\?(.*)\?=$/.exec(value);
  return encoded ? Buffer.from(encoded[1] ?? '', 'base64').toString('utf8') : value;
}

const mcpHeaders = (ctx: Context) => ({
  protocolVersion: headerValue(ctx, 'MCP-Protocol-Version'),
  method: headerValue(ctx, 'Mcp-Method'),
  name: headerValue(ctx, 'Mcp-Name'),
});

/** `notifications/cancelled` for a `tools/call` of the same session cancels its run; without a session it cannot name one. */
async function cancelRequested(
  services: McpServices,
  ctx: Context,
  principal: McpPrincipal,
  sessionId: string | undefined,
  params: McpRequest['params'],
): Promise<void> {
  const requestId = cancelledRequestOf(params);
  if (sessionId === undefined || requestId === null) return;
  const logger = ctx.state.log ?? services.deps.logger;
  await services.cancellation.cancel(principal.operatorId, mcpRequestKey(sessionId, requestId), logger);
}

/**
 * `POST /mcp-server` (and the legacy `/mcp-server/<operator_id>`): one JSON-RPC message. Authentication, the rate
 * limit and every failure happen here rather than in middleware, so that each answer is a JSON-RPC error naming
 * the request's id.
 */
export const postHandler = mcp.handler({ raw: ['body', 'bytes', 'params'] }, async ({ deps: services, ctx, raw }) => {
  const { deps } = services;
  const { body } = raw;
  const id = peekId(body);
  try {
    if (raw.bytes === undefined || raw.bytes.length === 0) {
      sendJsonRpc(ctx, errorResponse(null, JSONRPC_ERROR.PARSE_ERROR, 'Parse error: the body is empty'));
      return;
    }
    checkOrigin(deps, ctx);
    const principal = await authenticateMcp(deps, ctx, raw.params.operatorId);
    const decision = await deps.rateLimits.consume('mcp', principal.operatorId);
    if (!decision.allowed) {
      throw new AppError(429, 'RATE_LIMITED', 'Rate limit exceeded for mcp', { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
    }
    // A 2026-07-28 request names its version in `_meta` too: revisionOf answers an unsupported one with -32022 (or -32020).
    if (!claimsModern((body as { params?: unknown } | null | undefined)?.params)) checkProtocolVersion(ctx);
    const sessionId = sessionIdOf(ctx);
    const message = parseMessage(body);
    if (message.kind === 'invalid') {
      sendJsonRpc(ctx, errorResponse(message.id, JSONRPC_ERROR.INVALID_REQUEST, `Invalid Request: ${message.reason}`));
      return;
    }
    if (message.kind === 'notification' && message.method === 'notifications/cancelled') {
      await cancelRequested(services, ctx, principal, sessionId, message.params);
    }
    if (message.kind === 'response') await answerTaskInput(deps, { operatorId: principal.operatorId, apiKeyId: principal.keyId }, message);
    if (message.kind !== 'request') {
      sendAccepted(ctx);
      return;
    }
    const revision = revisionOf(mcpHeaders(ctx), message);
    if (isRevisionProblem(revision)) {
      sendJsonRpc(ctx, errorResponse(message.id, revision.code, revision.message, revision.data), 400);
      return;
    }
    await answer(services, ctx, principal, sessionId, revision, message);
  } catch (error) {
    sendFailure(ctx, error, id);
  }
});
