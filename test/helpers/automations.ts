import { beginRun } from '../../commands/runs/begin';
import type { TestApp } from './app';
import { dataClient, type DataClient } from './data';
import { http, type HttpResult, type RequestOptions } from './http';

export interface AutomationsClient extends DataClient {
  /** A request to `/workflows-api<path>` with the operator's key. */
  wf: (path: string, options?: Omit<RequestOptions, 'token'>) => Promise<HttpResult>;
  /** Creates a workflow and returns its record (fails the test on anything but 201). */
  create: (body: Record<string, unknown>) => Promise<any>;
}

/** A fresh operator (iGaming template, API key) with helpers for the workflows API. */
export async function automationsClient(app: TestApp): Promise<AutomationsClient> {
  const data = await dataClient(app);
  const wf = (path: string, request: Omit<RequestOptions, 'token'> = {}) => http(`${app.url}/workflows-api${path}`, { ...request, token: data.key });
  const create = async (body: Record<string, unknown>) => {
    const response = await wf('/workflows', { method: 'POST', body });
    if (response.status !== 201) throw new Error(`create workflow failed: ${response.status} ${response.text}`);
    return response.body.data;
  };
  return { ...data, wf, create };
}

/** A manual trigger, then `actions` chained in order. */
export function chain(
  name: string,
  actions: Array<{ id: string; type: string; params: Record<string, unknown> }>,
  trigger: Record<string, unknown> = { id: 'start', type: 'trigger.manual', params: {} },
) {
  const nodes = [trigger, ...actions];
  const edges = actions.map((action, index) => ({ from: String(nodes[index]!.id), to: action.id }));
  return { name, nodes, edges };
}

/**
 * Polls `GET /workflows/:id/runs` until `count` runs have finished (completed or failed), then reads each one whole
 * (`GET /runs/:runId`): a list carries no payloads or outputs (docs/security.md).
 */
export async function waitForRuns(client: AutomationsClient, workflowId: string, count: number, timeoutMs = 20_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.wf(`/workflows/${workflowId}/runs?limit=100`);
    const finished = (response.body.data ?? []).filter((run: any) => run.status !== 'running');
    if (finished.length >= count) return Promise.all(finished.map(async (run: any) => (await client.wf(`/runs/${run.id}`)).body.data));
    if (Date.now() > deadline) throw new Error(`only ${finished.length} of ${count} runs finished: ${JSON.stringify(response.body.data)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Records a manual run as the API does before it starts the workflow (`beginRun`), and starts nothing: the state an
 * API that died in between leaves behind.
 */
export function beginManualRun(app: TestApp, operatorId: string, automationId: string, runId: string) {
  return beginRun(app.deps, {
    operatorId,
    automationId,
    source: 'manual',
    input: {},
    runId,
    temporalWorkflowId: `automation-manual-${runId}`,
    startedAt: new Date().toISOString(),
  });
}
