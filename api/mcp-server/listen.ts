import { messageFrame } from '../../core/mcpEvents';
import { errorResponse, isPlainObject, JSONRPC_ERROR, type JsonRpcId } from '../../core/mcpJsonRpc';
import { AppError } from '../errors';
import type { DispatchContext, McpAnswer } from './dispatchContext';
import type { EventStreamResponse } from './eventStreamResponse';
import type { StreamSink } from './streamHub';

/** `_meta` key naming the subscription (the listen request's id) on its acknowledgement and every notification. */
export const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The notification types a listen stream can carry: tools are the only list this server has. */
function honoredFilter(requested: unknown): { toolsListChanged?: true } {
  return isPlainObject(requested) && requested.toolsListChanged === true ? { toolsListChanged: true } : {};
}

/**
 * `subscriptions/listen` (2026-07-28, which replaced the standalone `GET` stream with it): answers with a
 * `text/event-stream` whose first message is `notifications/subscriptions/acknowledged` with the types honoured
 * (`toolsListChanged` only; prompts and resources do not exist here), then `notifications/tools/list_changed` each time
 * the operator's tools change, each naming the subscription in `_meta`. The stream takes one of the operator's stream
 * slots like every other (429 `MCP_SESSION_LIMIT_EXCEEDED` beyond `MCP_MAX_STREAMS_PER_OPERATOR`, before the
 * acknowledgement) and lasts until the client leaves, which ends it without a result (an abrupt close, as the revision
 * allows).
 */
export async function listen(context: DispatchContext, id: JsonRpcId, params: Record<string, unknown>): Promise<McpAnswer> {
  if (!context.openStream) {
    const message = 'Invalid Request: subscriptions/listen answers with text/event-stream: accept it';
    return { response: errorResponse(id, JSONRPC_ERROR.INVALID_REQUEST, message), status: 406 };
  }
  const filter = honoredFilter(params.notifications);
  const meta = { [SUBSCRIPTION_ID]: id };
  const changed = messageFrame({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: meta } });
  const opened: { stream?: EventStreamResponse } = {};
  const early: string[] = [];
  const sink: StreamSink = { write: () => undefined };
  if (filter.toolsListChanged) sink.listChanged = () => (opened.stream ? opened.stream.write(changed) : early.push(changed));
  const release = await context.hub.open(context.principal.operatorId, null, sink);
  if (!release) {
    const limit = context.deps.config.MCP_MAX_STREAMS_PER_OPERATOR;
    throw new AppError(429, 'MCP_SESSION_LIMIT_EXCEEDED', `At most ${limit} concurrent event streams per operator`, { headers: { 'Retry-After': '5' } });
  }
  const open = context.openStream();
  // The acknowledgement first (the revision forbids any notification before it), then a change heard meanwhile.
  open.write(messageFrame({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: filter, _meta: meta } }));
  if (early.length > 0) open.write(changed);
  opened.stream = open;
  return new Promise<McpAnswer>((resolve) => {
    open.onClose(() => {
      release();
      resolve({ response: errorResponse(id, JSONRPC_ERROR.INTERNAL_ERROR, 'subscription closed'), cancelled: true });
    });
  });
}
