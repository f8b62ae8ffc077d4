import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { EventSourceMessage } from 'eventsource-parser';
import { streamSlotLockKey } from '../../core/mcpEvents';
import type { TestApp } from './app';
import { followEventStream } from './mcp';

/** The official SDK client on the MCP endpoint with the key as bearer (what an MCP host does). */
export function sdkClient(baseUrl: string, key: string, options: { path?: string; listChanged?: () => void; capabilities?: ClientCapabilities } = {}) {
  const client = new Client(
    { name: 'sdk-e2e', version: '1.0.0' },
    {
      ...(options.listChanged ? { listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => options.listChanged!() } } } : {}),
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}${options.path ?? '/mcp-server'}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  return { client, transport };
}

export interface PostedStream {
  status: number;
  contentType: string | null;
  /** The JSON body when the answer was not a stream. */
  body: any;
  /** The JSON-RPC messages of the stream's `message` events, in order. */
  messages: any[];
  comments: string[];
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * POSTs one JSON-RPC message accepting JSON and `text/event-stream` (as MCP clients do) and reads a stream answer
 * with eventsource-parser as it arrives; a JSON answer resolves with its parsed body.
 */
export async function postAcceptingStream(baseUrl: string, key: string, message: unknown, headers: Record<string, string> = {}): Promise<PostedStream> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/mcp-server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
    signal: abort.signal,
  });
  const contentType = response.headers.get('content-type');
  const messages: any[] = [];
  const comments: string[] = [];
  const idle = { messages, comments, waitFor: async () => undefined, close: () => abort.abort() };
  if (!contentType?.startsWith('text/event-stream')) {
    const text = await response.text();
    return { status: response.status, contentType, body: text ? JSON.parse(text) : undefined, ended: Promise.resolve(), ...idle };
  }
  const followed = followEventStream(
    response.body,
    {
      onEvent: (event: EventSourceMessage) => {
        if (event.event === undefined || event.event === 'message') messages.push(JSON.parse(event.data));
      },
      onComment: (comment) => comments.push(comment),
    },
    () => `messages ${JSON.stringify(messages)}`,
  );
  const { ended } = followed;
  const waitFor = (predicate: () => boolean, timeoutMs = 15_000) => followed.waitFor(predicate, timeoutMs);
  return { status: response.status, contentType, body: undefined, ended, ...idle, waitFor };
}

/** Polls `GET /workflows-api/runs/:id` until the run is no longer running. */
export async function settledRun(baseUrl: string, key: string, runId: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${baseUrl}/workflows-api/runs/${runId}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as any;
    if (body.data && body.data.status !== 'running') return body.data;
    if (Date.now() > deadline) throw new Error(`run ${runId} still running: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * How many of the operator's event-stream slots are held (PostgreSQL advisory locks; a bigint key is split into
 * classid/objid): a stream holds its slot from the moment it is registered, so this tells when a stream a client
 * opened in the background (the SDK's GET stream) can receive frames.
 */
export async function streamSlotsHeld(db: TestApp['deps']['db'], operatorId: string, slots = 5): Promise<number> {
  const keys = Array.from({ length: slots }, (_, slot) => BigInt.asUintN(64, BigInt(streamSlotLockKey(operatorId, slot))));
  const pairs = keys.flatMap((key) => [Number(key >> 32n), Number(key & 0xffffffffn)]);
  const result = await db.raw<{ rows: Array<{ count: string }> }>(
    `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted AND (classid::bigint, objid::bigint) IN (${keys.map(() => '(?, ?)').join(', ')})`,
    pairs,
  );
  return Number(result.rows[0]?.count ?? 0);
}
