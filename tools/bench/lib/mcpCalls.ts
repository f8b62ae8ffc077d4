import type { leanClient } from './httpClient';

/** The revision of tasks: a raw request names it in its header (no session needed). */
const TASKS_HEADERS = { 'MCP-Protocol-Version': '2025-11-25' };
const TASK_TTL_MS = 60_000;
/** The bench polls `tasks/get` this often; a real client waits the task's `pollInterval` (2 s) between polls. */
export const POLL_MS = 20;
/** A task not completed by then fails the bench rather than hang it. */
const TASK_DEADLINE_MS = 30_000;

export interface Task {
  taskId: string;
  status: string;
}

/** What one task phase gathers beside its timings: each create call's latency, and the tasks to check afterwards. */
export interface TaskPhase {
  creates: number[];
  taskIds: string[];
}

export const taskPhase = (): TaskPhase => ({ creates: [], taskIds: [] });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `bench:mcp`'s calls of one tool on the MCP endpoint at `url` with `apiKey`, as raw JSON-RPC requests through the
 * bench's keep-alive client: the synchronous `tools/call`, any 2025-11-25 request (`rpc`), and the tool run as a task —
 * created, then polled to `completed` or awaited by `tasks/result` — with `checkResults` reading every polled task's
 * result, `concurrency` at a time.
 */
export function mcpCalls(client: ReturnType<typeof leanClient>, url: string, apiKey: string, toolName: string, concurrency: number) {
  let id = 0;
  const toolCallHeaders = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
  const toolCall = async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: toolName, arguments: { playerId: 'p-1' } } });
    const response = await client.send('POST', `${url}/mcp-server`, toolCallHeaders, body);
    const answer = response.status === 200 ? (JSON.parse(response.body) as { result?: { isError?: boolean } }) : undefined;
    if (answer?.result?.isError !== false) throw new Error(`tools/call failed: HTTP ${response.status} ${response.body.slice(0, 300)}`);
  };
  /** A raw 2025-11-25 request: its result, or a throw on a non-2xx answer or a JSON-RPC error. */
  const rpc = async <T>(method: string, params: Record<string, unknown>): Promise<T> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params });
    const response = await client.send('POST', `${url}/mcp-server`, { ...toolCallHeaders, ...TASKS_HEADERS }, body);
    const answer = JSON.parse(response.body) as { result?: T; error?: unknown };
    if (response.status !== 200 || answer.result === undefined) throw new Error(`${method}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
    return answer.result;
  };
  const createTask = async (phase: TaskPhase, name = toolName, ttl = TASK_TTL_MS): Promise<string> => {
    const begin = performance.now();
    const { task } = await rpc<{ task: Task }>('tools/call', { name, arguments: { playerId: 'p-1' }, task: { ttl } });
    phase.creates.push(performance.now() - begin);
    if (task.status !== 'working') throw new Error(`tools/call with task answered ${JSON.stringify(task).slice(0, 300)}`);
    phase.taskIds.push(task.taskId);
    return task.taskId;
  };
  /** Create → `completed`, read by `tasks/get` every POLL_MS (the result itself is checked after the phase). */
  const polledTask = (phase: TaskPhase) => async () => {
    const taskId = await createTask(phase);
    const deadline = Date.now() + TASK_DEADLINE_MS;
    for (;;) {
      await sleep(POLL_MS);
      const task = await rpc<Task>('tasks/get', { taskId });
      if (task.status === 'completed') return;
      if (task.status !== 'working' || Date.now() > deadline) throw new Error(`task ${taskId} is ${task.status}`);
    }
  };
  /** Create → the result, by `tasks/result` (which waits for the run on Temporal's long poll). */
  const awaitedTask = (phase: TaskPhase) => async () => {
    const taskId = await createTask(phase);
    const result = await rpc<{ isError?: boolean }>('tasks/result', { taskId });
    if (result.isError !== false) throw new Error(`task ${taskId} failed: ${JSON.stringify(result).slice(0, 300)}`);
  };
  /** Every polled task's run succeeded: `tasks/get` reads a failed run as `completed` too. */
  const checkResults = async (phase: TaskPhase) => {
    const ids = [...phase.taskIds];
    const lane = async () => {
      for (let taskId = ids.pop(); taskId !== undefined; taskId = ids.pop()) {
        const result = await rpc<{ isError?: boolean }>('tasks/result', { taskId });
        if (result.isError !== false) throw new Error(`task ${taskId} failed: ${JSON.stringify(result).slice(0, 300)}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
  };
  return { toolCall, rpc, createTask, polledTask, awaitedTask, checkResults };
}
