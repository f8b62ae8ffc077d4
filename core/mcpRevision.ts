import { isPlainObject, JSONRPC_ERROR } from './mcpJsonRpc';
import { TASKS_EXTENSION } from './mcpTasks';

/**
 * The MCP revisions one endpoint speaks, chosen per request. A request whose `params._meta` names
 * `io.modelcontextprotocol/protocolVersion` is of the stateless 2026-07-28 revision (no `initialize`, no session,
 * results typed by `resultType`); anything else is of the session-based revisions, by its `MCP-Protocol-Version`
 * header (2025-06-18 when absent, as the spec's own clients send nothing).
 */
export const MODERN_REVISION = '2026-07-28';
export const LEGACY_TASKS_REVISION = '2025-11-25';

export const META_KEY = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** 2026-07-28's errors for a request that breaks its HTTP rules (sent with HTTP 400). */
export const REVISION_ERROR = { HEADER_MISMATCH: -32020, MISSING_CAPABILITY: -32021, UNSUPPORTED_VERSION: -32022 } as const;

export interface Revision {
  /** The revision the request is of. */
  version: string;
  /** 2026-07-28: stateless, `resultType` on every result. */
  modern: boolean;
  /** The client can take a task for a `tools/call`: the 2026 extension declared in the request, or a 2025-11-25 session. */
  tasks: boolean;
}

export interface RevisionProblem {
  code: number;
  message: string;
  data?: unknown;
}

const metaOf = (params: unknown): Record<string, unknown> | undefined => {
  const meta = isPlainObject(params) ? params._meta : undefined;
  return isPlainObject(meta) ? meta : undefined;
};

/** Whether the request names a 2026-07-28-style protocol version in its `_meta`. */
export const claimsModern = (params: unknown) => metaOf(params)?.[META_KEY.protocolVersion] !== undefined;

/**
 * The revision of one request, or why 2026-07-28 refuses it: headers that disagree with the body (-32020):
 * `MCP-Protocol-Version` must equal the `_meta` version, `Mcp-Method` the method, and `Mcp-Name` the tool's name or
 * the task id where the revision asks for it; a version other than 2026-07-28 in both (-32022, naming the supported
 * ones); a request sent as 2026-07-28 (`MCP-Protocol-Version: 2026-07-28`) whose `_meta` lacks the protocol version
 * or the client's capabilities (-32602). Each is sent with HTTP 400.
 */
export function revisionOf(
  headers: { protocolVersion?: string; method?: string; name?: string },
  request: { method: string; params: unknown },
): Revision | RevisionProblem {
  const meta = metaOf(request.params);
  const claimed = meta?.[META_KEY.protocolVersion];
  const invalidMeta = (missing: string): RevisionProblem => ({
    code: JSONRPC_ERROR.INVALID_PARAMS,
    message: `Invalid params: a ${MODERN_REVISION} request carries ${missing} in params._meta`,
  });
  if (claimed === undefined) {
    if (headers.protocolVersion === MODERN_REVISION) return invalidMeta(META_KEY.protocolVersion);
    const version = headers.protocolVersion ?? '2025-06-18';
    return { version, modern: false, tasks: version === LEGACY_TASKS_REVISION };
  }
  const mismatch = (header: string, expected: string, actual: string | undefined): RevisionProblem => ({
    code: REVISION_ERROR.HEADER_MISMATCH,
    message: `Header ${header} ${actual === undefined ? 'is missing' : 'does not match the request body'}`,
    data: { mismatch: { header, expected, actual: actual ?? null } },
  });
  if (headers.protocolVersion !== claimed) return mismatch('MCP-Protocol-Version', String(claimed).slice(0, 40), headers.protocolVersion);
  if (claimed !== MODERN_REVISION) {
    return {
      code: REVISION_ERROR.UNSUPPORTED_VERSION,
      message: `Unsupported protocol version: ${String(claimed).slice(0, 40)}`,
      data: { supported: [MODERN_REVISION], requested: claimed },
    };
  }
  const capabilities = meta?.[META_KEY.clientCapabilities];
  if (!isPlainObject(capabilities)) return invalidMeta(META_KEY.clientCapabilities);
  if (headers.method !== request.method) return mismatch('Mcp-Method', request.method, headers.method);
  const named = nameOf(request);
  if (named !== undefined && headers.name !== named) return mismatch('Mcp-Name', named, headers.name);
  const extensions = isPlainObject(capabilities.extensions) ? capabilities.extensions : {};
  return { version: MODERN_REVISION, modern: true, tasks: extensions[TASKS_EXTENSION] !== undefined };
}

/** What 2026-07-28 repeats in `Mcp-Name`: the tool of a call, the task of a task request. */
function nameOf(request: { method: string; params: unknown }): string | undefined {
  const params = isPlainObject(request.params) ? request.params : {};
  if (request.method === 'tools/call' && typeof params.name === 'string') return params.name;
  if (['tasks/get', 'tasks/update', 'tasks/cancel'].includes(request.method) && typeof params.taskId === 'string') return params.taskId;
  return undefined;
}

/**
 * A result as 2026-07-28 requires every result to be: typed by `resultType` (`"complete"` unless the result says
 * otherwise, as a task's creation does). Results nested in results are results too — a completed task's `result` is
 * the `CallToolResult` of its call, which the SDK v2 tasks client validates as such.
 *
 * @example completeResult({ content: [] }) // { resultType: 'complete', content: [] }
 */
export const completeResult = <T extends object>(result: T): { resultType: string } & T => ({ resultType: 'complete', ...result });

export const isRevisionProblem = (value: Revision | RevisionProblem): value is RevisionProblem => 'code' in value;
