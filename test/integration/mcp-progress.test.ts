import { streamSlotLockKey } from '../../core/mcpEvents';
import { startTestApp, type TestApp } from '../helpers/app';
import { createWorkflow, mcpOperator, mcpPost, openEventStream, rpc, toolAutomation, type EventStream, type McpOperator } from '../helpers/mcp';
import { startProvider, type TestProvider } from '../helpers/providerServer';

let first: TestApp;
let second: TestApp;
let provider: TestProvider;
let alice: McpOperator;
let bob: McpOperator;
let toolName: string;

/** Three slow steps, so a run reports progress while it goes. */
const steps = (url: string) => ['one', 'two', 'three'].map((id) => ({ id, type: 'action.http_request', params: { method: 'GET', url: `${url}/${id}` } }));

beforeAll(async () => {
  [first, second] = await Promise.all([startTestApp(), startTestApp()]);
  provider = await startProvider(() => ({ status: 200, body: { ok: true }, delayMs: 400 }));
  [alice, bob] = await Promise.all([mcpOperator(first.url), mcpOperator(first.url)]);
  toolName = (await createWorkflow(first.url, alice.accessToken, toolAutomation('Three steps', steps(provider.url)))).mcp_tool_name;
});
afterAll(async () => {
  await Promise.all([first.close(), second.close(), provider.close()]);
});

async function openReady(url: string, key: string, session: string): Promise<EventStream> {
  const stream = await openEventStream(url, key, `?session=${encodeURIComponent(session)}`);
  expect(stream.status).toBe(200);
  await stream.waitFor(() => stream.comments.includes('stream open'));
  return stream;
}

const progressOf = (stream: EventStream) =>
  stream.events.map((event) => {
    expect(event.event).toBe('message');
    return JSON.parse(event.data) as { jsonrpc: string; method: string; params: { progressToken: string; progress: number; total: number; message?: string } };
  });

const call = (url: string, session: string | undefined, token: string | undefined, key = alice.key) =>
  mcpPost(url, key, rpc('tools/call', { name: toolName, arguments: { playerId: 'p-1' }, ...(token ? { _meta: { progressToken: token } } : {}) }), {
    headers: session ? { 'mcp-session-id': session } : {},
  });

function expectProgression(frames: ReturnType<typeof progressOf>, token: string) {
  expect(frames.length).toBeGreaterThanOrEqual(2);
  for (const frame of frames) {
    expect(frame).toMatchObject({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token } });
  }
  const values = frames.map((frame) => frame.params.progress);
  expect(values).toEqual([...values].sort((a, b) => a - b));
  expect(new Set(values).size).toBe(values.length);
  const last = frames.at(-1)!.params;
  expect(last.progress).toBe(last.total);
  expect(last.total).toBe(4);
}

describe('progress notifications on the event stream (spec 4.6, 6.3)', () => {
  it('a multi-step call sent with Mcp-Session-Id and a progressToken streams increasing progress to the session’s stream', async () => {
    const stream = await openReady(first.url, alice.key, 'same-instance');
    try {
      const response = await call(first.url, 'same-instance', 'tok-1');
      expect(response.body.result.isError).toBe(false);
      await stream.waitFor(() => progressOf(stream).some((frame) => frame.params.progress === frame.params.total));
      expectProgression(progressOf(stream), 'tok-1');
    } finally {
      stream.close();
    }
  });

  it('with cross-instance affinity, a POST handled by another API instance reaches the stream', async () => {
    const stream = await openReady(first.url, alice.key, 'cross-instance');
    try {
      const response = await call(second.url, 'cross-instance', 'tok-2');
      expect(response.body.result.isError).toBe(false);
      await stream.waitFor(() => progressOf(stream).some((frame) => frame.params.progress === frame.params.total));
      expectProgression(progressOf(stream), 'tok-2');
    } finally {
      stream.close();
    }
  });

  it('sends nothing without a progressToken, to other sessions, or to another operator using the same session id', async () => {
    const [own, otherSession, otherOperator] = await Promise.all([
      openReady(first.url, alice.key, 'quiet'),
      openReady(second.url, alice.key, 'elsewhere'),
      openReady(second.url, bob.key, 'shared-id'),
    ]);
    try {
      await call(first.url, 'quiet', undefined);
      const loud = await openReady(first.url, alice.key, 'shared-id');
      await call(second.url, 'shared-id', 'tok-3');
      await loud.waitFor(() => progressOf(loud).some((frame) => frame.params.progress === frame.params.total));
      loud.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(own.events).toEqual([]);
      expect(otherSession.events).toEqual([]);
      expect(otherOperator.events).toEqual([]);
    } finally {
      [own, otherSession, otherOperator].forEach((stream) => stream.close());
    }
  });
});

/** Backends holding any of the operator's stream-slot advisory locks (a bigint key is split into classid/objid). */
async function slotHolders(app: TestApp, operatorId: string): Promise<number[]> {
  const keys = Array.from({ length: 5 }, (_, slot) => BigInt.asUintN(64, BigInt(streamSlotLockKey(operatorId, slot))));
  const pairs = keys.flatMap((key) => [Number(key >> 32n), Number(key & 0xffffffffn)]);
  const result = await app.deps.db.raw<{ rows: Array<{ pid: number }> }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted AND (classid::bigint, objid::bigint) IN (${keys.map(() => '(?, ?)').join(', ')})`,
    pairs,
  );
  const rows = result.rows;
  return rows.map((row) => row.pid);
}

describe('the dedicated stream connection', () => {
  it('reconnects when PostgreSQL drops it, takes its slot again and keeps delivering frames from other instances', async () => {
    const operator = await mcpOperator(first.url);
    const name = (await createWorkflow(first.url, operator.accessToken, toolAutomation('Reconnect steps', steps(provider.url)))).mcp_tool_name;
    const stream = await openReady(first.url, operator.key, 'reconnect');
    try {
      const [before] = await slotHolders(first, operator.operatorId);
      expect(before).toEqual(expect.any(Number));
      await first.deps.db.raw('SELECT pg_terminate_backend(?)', [before!]);
      let after: number[] = [];
      for (let attempt = 0; attempt < 100 && !(after.length === 1 && after[0] !== before); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = await slotHolders(first, operator.operatorId);
      }
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(before);
      const response = await mcpPost(
        second.url,
        operator.key,
        rpc('tools/call', { name, arguments: { playerId: 'p-1' }, _meta: { progressToken: 'after-reconnect' } }),
        {
          headers: { 'mcp-session-id': 'reconnect' },
        },
      );
      expect(response.body.result.isError).toBe(false);
      await stream.waitFor(() => progressOf(stream).some((frame) => frame.params.progress === frame.params.total));
      expectProgression(progressOf(stream), 'after-reconnect');
    } finally {
      stream.close();
    }
  });
});

describe('MCP_CROSS_INSTANCE_AFFINITY=false', () => {
  it('only the instance that handled the call delivers frames', async () => {
    const [left, right] = await Promise.all([startTestApp({ MCP_CROSS_INSTANCE_AFFINITY: 'false' }), startTestApp({ MCP_CROSS_INSTANCE_AFFINITY: 'false' })]);
    const stream = await openReady(left.url, alice.key, 'no-affinity');
    try {
      await call(right.url, 'no-affinity', 'tok-away');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stream.events).toEqual([]);
      await call(left.url, 'no-affinity', 'tok-home');
      await stream.waitFor(() => progressOf(stream).some((frame) => frame.params.progress === frame.params.total));
      expectProgression(progressOf(stream), 'tok-home');
    } finally {
      stream.close();
      await Promise.all([left.close(), right.close()]);
    }
  });
});
