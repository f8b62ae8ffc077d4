import { startLoopbackServer } from '../stack/loopbackServer';
import { post, signUpOperator } from '../stack/stackClient';
import { request, result, waitUntil, type Scenario } from './lib';

const TASKS = 'io.modelcontextprotocol/tasks';

/** A 2026-07-28 request: the envelope in `_meta` (the tasks extension declared), the method and name repeated in headers. */
function modern(method: string, params: Record<string, unknown>, name: string) {
  const body = {
    jsonrpc: '2.0',
    id: `${method}-${Date.now()}`,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'chaos', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
      },
    },
  };
  return { body, headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, 'Mcp-Name': name } };
}

/**
 * 7. An agent's durable tool call across an API SIGKILL: a tool whose automation waits 10 minutes (1 minute with
 * `--short`) and then POSTs to a loopback receiver is called as an MCP task (2026-07-28 with the tasks extension). The
 * task must be created in under 1 s; the API process is killed and started again; the new process must report the
 * task `working`; polled with `tasks/get` it completes once the delay is over, and `tasks/result` (2025-11-25) must
 * return the run's output, the receiver having settled exactly once (a redelivery carries the same `Idempotency-Key`).
 * It runs first and the wait for the result goes on while every other scenario runs (`later`), so CI does not sit
 * through the delay.
 */
export const mcpTaskRestart: Scenario = async (context) => {
  const delaySeconds = context.short ? 60 : 600;
  const { url } = context.api;
  const { operatorId, accessToken, apiKey } = await signUpOperator(url);
  const keys = await request(url, '/api-keys', { key: accessToken });
  const keyId = keys.body.data[0].id as string;
  await post(url, `/api-keys/${keyId}/mcp`, { mcp_enabled: true, mcp_workflow_allowlist: null }, accessToken, 'PATCH');
  const deliveries: string[] = [];
  const receiver = await startLoopbackServer((request, _body, response) => {
    deliveries.push(String(request.headers['idempotency-key'] ?? `none-${deliveries.length}`));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"settled":true}');
  });
  const failures: string[] = [];
  let recoveryMs: number | null = null;
  /** Settlements as the receiver counts them: a redelivery with the same `Idempotency-Key` is the same settlement. */
  const settledOnce = () => new Set(deliveries).size;
  const outcome = (extra = '') => ({
    ...result(
      `MCP task across an API SIGKILL`,
      { sent: 1, stored: settledOnce(), lost: deliveries.length === 0 ? 1 : 0, duplicated: Math.max(0, settledOnce() - 1), fiveXx: 0, recoveryMs },
      failures,
    ),
    extra,
  });
  let taskId: string;
  let createdMs: number;
  try {
    const nodes = [
      {
        id: 'start',
        type: 'trigger.manual',
        params: { inputSchema: { type: 'object', properties: { playerId: { type: 'string' } }, required: ['playerId'] } },
      },
      { id: 'wait', type: 'action.delay', params: { seconds: delaySeconds } },
      { id: 'settle', type: 'action.http_request', params: { method: 'POST', url: `${receiver.url}/settle`, body: { player: '{{ trigger.playerId }}' } } },
    ];
    const definition = {
      name: 'Chaos settle later',
      description: 'Settles after a wait',
      active: true,
      mcp_exposed: true,
      nodes,
      edges: [
        { from: 'start', to: 'wait' },
        { from: 'wait', to: 'settle' },
      ],
    };
    const tool = (await post(url, '/workflows-api/workflows', definition, apiKey)).data.mcp_tool_name as string;

    const call = modern('tools/call', { name: tool, arguments: { playerId: 'p-chaos' } }, tool);
    const created = await request(url, '/mcp-server', { key: apiKey, body: call.body, headers: call.headers });
    const id = created.body?.result?.taskId as string | undefined;
    if (created.body?.result?.resultType !== 'task' || !id) throw new Error(`no task: ${created.text.slice(0, 200)}`);
    [taskId, createdMs] = [id, created.ms];
    if (created.ms >= 1_000) failures.push(`task created in ${Math.round(created.ms)} ms (≥ 1 s)`);

    const port = new URL(url).port;
    await context.api.kill('SIGKILL');
    const killedAt = Date.now();
    context.api = await context.stack.spawnApi({ PORT: port });
    const get = modern('tasks/get', { taskId }, taskId);
    const after = await waitUntil(
      async () => {
        const answer = await request(context.api.url, '/mcp-server', { key: apiKey, body: get.body, headers: get.headers }).catch(() => undefined);
        return answer?.status === 200 ? answer : undefined;
      },
      30_000,
      'tasks/get from the new API process',
      100,
    );
    recoveryMs = Date.now() - killedAt;
    if (after.body.result?.status !== 'working') failures.push(`after the restart the task is ${JSON.stringify(after.body.result ?? after.body)}`);
  } catch (error) {
    failures.push((error as Error).message);
    await receiver.close();
    return outcome();
  }

  /** The delay runs out while the later scenarios run; the agent's polls go to whichever API process is current. */
  const settled = async () => {
    const get = modern('tasks/get', { taskId }, taskId);
    const waitedFrom = Date.now();
    try {
      // As agents do: poll tasks/get at the task's pollInterval, then read the result (one long poll of 10 minutes would
      // outlast fetch's own 5-minute wait for response headers).
      await waitUntil(
        async () => {
          const answer = await request(context.api.url, '/mcp-server', { key: apiKey, body: get.body, headers: get.headers }).catch(() => undefined);
          return answer?.body?.result?.status === 'completed' ? true : undefined;
        },
        (delaySeconds + 180) * 1000,
        'the task to complete',
        2_000,
      );
      // Other scenarios may still be killing an API or restarting a dependency: the agent asks again, as it would.
      const final = await waitUntil(
        async () => {
          const answer = await request(context.api.url, '/mcp-server', {
            key: apiKey,
            body: { jsonrpc: '2.0', id: 'result', method: 'tasks/result', params: { taskId } },
            headers: { 'MCP-Protocol-Version': '2025-11-25' },
          }).catch(() => undefined);
          return answer?.status === 200 ? answer : undefined;
        },
        60_000,
        'tasks/result',
        1_000,
      );
      const output = final.body?.result;
      if (output?.isError !== false || output?.structuredContent?.status !== 200) failures.push(`tasks/result: ${final.text.slice(0, 200)}`);
      if (settledOnce() !== 1) failures.push(`the receiver settled ${settledOnce()} times (${deliveries.length} calls)`);
      const runs = await context.db('automation_runs').where({ operator_id: operatorId }).select('status');
      if (runs.length !== 1 || runs[0]?.status !== 'completed') failures.push(`runs: ${JSON.stringify(runs)}`);
    } catch (error) {
      failures.push((error as Error).message);
    } finally {
      await receiver.close();
    }
    return outcome(`created in ${Math.round(createdMs)} ms, delay ${delaySeconds}s, result after ${((Date.now() - waitedFrom) / 1000).toFixed(0)}s more`);
  };
  return { ...outcome('task working after the restart; its result is checked after the other scenarios'), later: settled() };
};
