import type { Context } from 'koa';
import type { JsonRpcResponse } from '../../core/mcpJsonRpc';
import type { AppDeps } from '../deps';
import type { ApiKeyPrincipal } from '../middleware/authenticate';
import type { McpCallCancellation } from './callCancellation';
import type { EventStreamResponse } from './eventStreamResponse';
import type { McpStreamHub } from './streamHub';

/**
 * What a method of the MCP endpoint works with. It lives apart from `dispatch` (methods.ts) so the methods it
 * routes to (toolsCall.ts) take it without importing their dispatcher back.
 */
export interface DispatchContext {
  deps: AppDeps;
  hub: McpStreamHub;
  cancellation: McpCallCancellation;
  ctx: Context;
  principal: ApiKeyPrincipal;
  sessionId: string | undefined;
  /** Present when the client accepts `text/event-stream`: answers the request with a stream from now on. */
  openStream: (() => EventStreamResponse) | undefined;
  log: (error: Error) => void;
}

/** The answer to one request; `cancelled` when its client cancelled it, so a stream ends without it (MCP). */
export interface McpAnswer {
  response: JsonRpcResponse;
  cancelled?: boolean;
}
