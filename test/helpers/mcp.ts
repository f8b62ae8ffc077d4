import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Knex } from 'knex';
import { http, type HttpResult } from './http';
import { createApiKey, signupOperator, type TestOperator } from './identity';
import { startProvider, type TestProvider } from './providerServer';

export interface McpOperator extends TestOperator {
  keyId: string;
  key: string;
}

/** Signs up an operator and gives it an API key with MCP enabled (`allowlist` null = every exposed workflow). */
export async function mcpOperator(baseUrl: string, allowlist: string[] | null = null): Promise<McpOperator> {
  const operator = await signupOperator(baseUrl, 'MCP Casino');
  const { id, key } = await createApiKey(baseUrl, operator, 'mcp');
  await setMcp(baseUrl, operator, id, { mcp_enabled: true, mcp_workflow_allowlist: allowlist });
  return { ...operator, keyId: id, key };
}

export async function setMcp(baseUrl: string, operator: TestOperator, keyId: string, body: Record<string, unknown>): Promise<HttpResult> {
  const response = await http(`${baseUrl}/api-keys/${keyId}/mcp`, { method: 'PATCH', token: operator.accessToken, body });
  if (response.status !== 200) throw new Error(`PATCH mcp failed: ${response.status} ${response.text}`);
  return response;
}

/** POSTs one JSON-RPC message to the MCP endpoint (`path` for the legacy form). */
export function mcpPost(
  baseUrl: string,
  token: string | undefined,
  message: unknown,
  options: { headers?: Record<string, string>; path?: string } = {},
): Promise<HttpResult> {
  return http(`${baseUrl}${options.path ?? '/mcp-server'}`, { method: 'POST', body: message, headers: options.headers, ...(token ? { token } : {}) });
}

let nextId = 1;

/** A JSON-RPC request with a fresh id. */
export function rpc(method: string, params?: unknown): { jsonrpc: '2.0'; id: number; method: string; params?: unknown } {
  return { jsonrpc: '2.0', id: nextId++, method, ...(params !== undefined ? { params } : {}) };
}

/**
 * A 2026-07-28 request as its clients send it: the envelope in `_meta` (the tasks extension declared unless `tasks` is
 * false), the method and the tool or task repeated in headers; `headers` override them.
 */
export function modernPost(
  baseUrl: string,
  key: string,
  method: string,
  params: Record<string, unknown>,
  options: { tasks?: boolean; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const capabilities = options.tasks === false ? {} : { extensions: { 'io.modelcontextprotocol/tasks': {} } };
  const name = method === 'tools/call' ? params.name : params.taskId;
  const message = rpc(method, {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    },
  });
  const headers = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}), ...options.headers };
  return mcpPost(baseUrl, key, message, { headers });
}

/** A request of a 2025-11-25 session (after `initialize` negotiated it). */
export const legacyPost = (baseUrl: string, key: string, method: string, params: Record<string, unknown>): Promise<HttpResult> =>
  mcpPost(baseUrl, key, rpc(method, params), { headers: { 'MCP-Protocol-Version': '2025-11-25' } });

/** The run an MCP task drives (the task row names it). */
export async function runOfTask(db: Knex, taskId: string): Promise<string> {
  const row = await db('mcp_tasks').where({ id: taskId }).first('run_id');
  if (!row) throw new Error(`no task ${taskId}`);
  return row.run_id as string;
}

/** A manual-trigger workflow exposed as an MCP tool; `actions` follow the trigger in a chain. */
export function toolAutomation(
  name: string,
  actions: Array<{ id: string; type: string; params: Record<string, unknown> }>,
  options: { mcp_exposed?: boolean; active?: boolean; description?: string } = {},
) {
  const nodes = [
    { id: 'start', type: 'trigger.manual', params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] } } },
    ...actions,
  ];
  const edges = nodes.slice(1).map((node, index) => ({ from: nodes[index]!.id, to: node.id }));
  return {
    name,
    description: options.description ?? `${name} (test tool)`,
    active: options.active ?? true,
    mcp_exposed: options.mcp_exposed ?? true,
    nodes,
    edges,
  };
}

/** Creates a workflow through the management API and returns its record. */
export async function createWorkflow(
  baseUrl: string,
  token: string,
  definition: unknown,
): Promise<{ id: string; mcp_tool_name: string } & Record<string, unknown>> {
  const response = await http(`${baseUrl}/workflows-api/workflows`, { token, body: definition });
  if (response.status !== 201) throw new Error(`create workflow failed: ${response.status} ${response.text}`);
  return response.body.data;
}

/** An MCP operator with one tool, `KYC check`, whose workflow POSTs the player id to a loopback provider that echoes it. */
export async function kycToolFixture(baseUrl: string): Promise<{ provider: TestProvider; operator: McpOperator; toolName: string }> {
  const provider = await startProvider((request) => ({ status: 200, body: { checked: request.json?.playerId ?? null } }));
  const operator = await mcpOperator(baseUrl);
  const tool = await createWorkflow(
    baseUrl,
    operator.accessToken,
    toolAutomation('KYC check', [
      { id: 'kyc', type: 'action.http_request', params: { method: 'POST', url: `${provider.url}/kyc`, body: { playerId: '{{ trigger.playerId }}' } } },
    ]),
  );
  return { provider, operator, toolName: tool.mcp_tool_name };
}

/**
 * Reads a `text/event-stream` body with eventsource-parser as it arrives: `ended` settles when the body ends
 * (or is aborted), `waitFor` once a condition over what arrived holds, failing after `timeoutMs` with `seen()`.
 */
export function followEventStream(
  body: ReadableStream<Uint8Array> | null,
  handlers: { onEvent: (event: EventSourceMessage) => void; onComment: (comment: string) => void },
  seen: () => string,
) {
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((wake) => wake());
  const parser = createParser({
    onEvent: (event) => {
      handlers.onEvent(event);
      notify();
    },
    onComment: (comment) => {
      handlers.onComment(comment.trim());
      notify();
    },
  });
  const ended = (async () => {
    if (!body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      /* aborted */
    }
    notify();
  })();
  const waitFor = (predicate: () => boolean, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (predicate()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`stream: condition not met in ${timeoutMs} ms (${seen()})`));
      }, timeoutMs);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });
  return { ended, waitFor };
}

export interface EventStream {
  status: number;
  contentType: string | null;
  headers: Headers;
  /** The JSON-RPC error body of a non-200 answer. */
  body: any;
  events: EventSourceMessage[];
  comments: string[];
  /** Resolves once a frame (event or comment) satisfies `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens `GET /mcp-server/events` and parses the `text/event-stream` with eventsource-parser. A non-200 answer
 * resolves with its status and parsed JSON `body`.
 */
export function openEventStream(baseUrl: string, token: string | undefined, query = '', headers: Record<string, string> = {}): Promise<EventStream> {
  return openEventStreamAt(`${baseUrl}/mcp-server/events${query}`, token, headers);
}

/** Opens any MCP `text/event-stream` GET (the endpoint's own stream at `/mcp-server` too), like `openEventStream`. */
export async function openEventStreamAt(url: string, token: string | undefined, headers: Record<string, string> = {}): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    signal: abort.signal,
  });
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  if (response.status !== 200) {
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      headers: response.headers,
      body,
      events,
      comments,
      waitFor: async () => undefined,
      ended: Promise.resolve(),
      close: () => undefined,
    };
  }
  const followed = followEventStream(
    response.body,
    { onEvent: (event) => events.push(event), onComment: (comment) => comments.push(comment) },
    () => `events ${JSON.stringify(events)}, comments ${JSON.stringify(comments)}`,
  );
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    headers: response.headers,
    body: undefined,
    events,
    comments,
    ended: followed.ended,
    waitFor: (predicate, timeoutMs = 10_000) => followed.waitFor(predicate, timeoutMs),
    close: () => abort.abort(),
  };
}
