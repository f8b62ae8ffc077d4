import type { Client } from '@modelcontextprotocol/client' with { 'resolution-mode': 'import' };
import type { ApplicationInputHandler, JsonRpcResponse, TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client' with { 'resolution-mode': 'import' };
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core' with { 'resolution-mode': 'import' };
import { isPlainObject } from '../../core/mcpJsonRpc';
import { MODERN_REVISION as MODERN } from '../../core/mcpRevision';
import { TASKS_EXTENSION } from '../../core/mcpTasks';

const CLIENT_INFO = { name: 'v2-tasks-agent', version: '1.0.0' };

/**
 * The official SDK v2 client on the endpoint as a 2026-07-28 host connects it (auto negotiation: `server/discover`),
 * declaring the tasks extension unless `tasks` is false. Typed as the ESM build ext-tasks is written against (jest loads
 * both as CommonJS, one module).
 */
export async function v2Client(baseUrl: string, key: string, options: { tasks?: boolean } = {}): Promise<Client> {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const extensions = options.tasks === false ? {} : { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
  const client = new Client(CLIENT_INFO, { ...extensions, versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp-server`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: inRealmFetch,
  });
  await client.connect(transport);
  return client;
}

/**
 * `fetch` whose JSON bodies are parsed in the test's realm: jest runs tests in a VM context, and Node's `fetch` parses
 * in the main one, whose objects ext-tasks' JSON check refuses (their prototype is another realm's `Object.prototype`).
 */
const inRealmFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  return Object.assign(response, { json: async (): Promise<unknown> => JSON.parse(await response.text()) });
};

/**
 * What ext-tasks asks of a 2026-07-28 host (`rawDispatch`): the SDK client's codecs refuse a `resultType: "task"`
 * answer, so `tools/call` and `tasks/*` go through the host's own request path. On this stateless revision that is
 * one POST per request, its id the host's, with the revision's headers repeating the method and the tool or task.
 */
export function rawDispatch(baseUrl: string, key: string) {
  let nextId = 1;
  return async (request: JsonValue, options: { signal?: AbortSignal; context?: { headers?: Readonly<Record<string, string>> } } = {}) => {
    if (!isPlainObject(request) || typeof request.method !== 'string') throw new TypeError('a request names its method');
    const params = isPlainObject(request.params) ? request.params : {};
    const named = options.context?.headers?.['Mcp-Name'] ?? (typeof params.name === 'string' ? params.name : undefined);
    const response = await fetch(`${baseUrl}/mcp-server`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json',
        'MCP-Protocol-Version': MODERN,
        'Mcp-Method': request.method,
        ...(named === undefined ? {} : { 'Mcp-Name': named }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, ...request }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const body = JSON.parse(await response.text()) as { result?: JsonValue; error?: { code: number; message: string; data?: JsonValue } };
    return (body.error ? { kind: 'error', error: body.error } : { kind: 'result', result: body.result ?? null }) as JsonRpcResponse;
  };
}

/**
 * An ext-tasks session over a connected v2 client — what a 2026-07-28 host needs to run task tools: `session.callTool`
 * then `execution.settle()`. `onInputRequest` answers a task's input requests (an approval's form).
 */
export async function tasksSession(
  client: Client,
  baseUrl: string,
  key: string,
  onInputRequest?: ApplicationInputHandler<void>['handle'],
): Promise<TaskEnabledSession> {
  const { createTaskSessionFromClient } = await import('@modelcontextprotocol/ext-tasks/client');
  return createTaskSessionFromClient(client, {
    endpointId: `${baseUrl}/mcp-server`,
    rawDispatch: rawDispatch(baseUrl, key),
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    ...(onInputRequest ? { onInputRequest } : {}),
  });
}
