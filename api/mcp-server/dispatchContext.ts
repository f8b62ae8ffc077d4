import type { Context } from 'koa';
import type { JsonRpcResponse } from '../../core/mcpJsonRpc';
import type { Revision } from '../../core/mcpRevision';
import type { AppDeps } from '../deps';
import type { McpPrincipal } from './auth';
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
  principal: McpPrincipal;
  sessionId: string | undefined;
  /** The MCP revision this request is of (core/mcpRevision.ts): its result shapes and whether it may get a task. */
  revision: Revision;
  /** Present when the client accepts `text/event-stream`: answers the request with a stream from now on. */
  openStream: (() => EventStreamResponse) | undefined;
  log: (error: Error) => void;
}

/** The answer to one request; `cancelled` when its client cancelled it, so a stream ends without it (MCP). */
export interface McpAnswer {
  response: JsonRpcResponse;
  cancelled?: boolean;
  /** The HTTP status of an error the revision answers with its own (2026-07-28's 400 for a missing capability). */
  status?: number;
}
