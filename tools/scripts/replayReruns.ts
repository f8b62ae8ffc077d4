import { startLoopbackServer } from '../stack/loopbackServer';
import { post } from '../stack/stackClient';
import type { Recorder } from './replayRecorder';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A rerun from a failed step (a run that reuses its original's results under the `rerun-reuses-results` patch) and a
 * replay job (workflows/runReplay.ts) of three failed runs, each recorded once it has ended.
 */
export async function recordReruns(recorder: Recorder): Promise<void> {
  const { url, operator, deps } = recorder;
  const key = operator.apiKey;
  let up = false;
  const supplier = await startLoopbackServer((request, _body, response) => {
    const fail = !up && request.url?.startsWith('/flaky');
    response.writeHead(fail ? 400 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ ok: !fail }));
  });
  const runEnded = async (runId: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = await deps.db('automation_runs').where({ operator_id: operator.operatorId, id: runId }).first('status');
      if (row && row.status !== 'running') return;
      if (Date.now() > deadline) throw new Error(`run ${runId} did not end`);
      await sleep(100);
    }
  };
  try {
    const nodes = [
      { id: 'start', type: 'trigger.manual', params: {} },
      { id: 'first', type: 'action.http_request', params: { method: 'POST', url: `${supplier.url}/first`, body: { n: '{{ trigger.n }}' } } },
      { id: 'check', type: 'condition', params: { expression: 'nodes.first.body.ok' } },
      { id: 'call', type: 'action.http_request', params: { method: 'POST', url: `${supplier.url}/flaky`, body: { n: '{{ trigger.n }}' } } },
    ];
    const edges = [
      { from: 'start', to: 'first' },
      { from: 'first', to: 'check' },
      { from: 'check', to: 'call', when: true },
    ];
    const automation = (await post(url, '/workflows-api/workflows', { name: 'Replay: rerun', nodes, edges }, key)).data.id as string;
    const failed = async (n: number) => {
      const run = (await post(url, `/workflows-api/workflows/${automation}/test`, { n }, key)).data.id as string;
      await runEnded(run);
      return run;
    };

    const original = await failed(0);
    const replayed = [await failed(1), await failed(2), await failed(3)];
    up = true;
    const rerun = (await post(url, `/workflows-api/runs/${original}/rerun`, { fromNodeId: 'call' }, key)).data.runId as string;
    await runEnded(rerun);
    await recorder.save('automation-run-rerun', `automation-rerun-${rerun}`);

    const from = new Date(Date.now() - 3_600_000).toISOString();
    const replay = (await post(url, `/workflows-api/workflows/${automation}/replays`, { from, to: new Date().toISOString(), ratePerSecond: 2 }, key)).data;
    // The original's latest attempt (the rerun) succeeded, so a replay reruns only the three still failed.
    if (replay.total !== replayed.length) throw new Error(`the replay found ${replay.total} failed runs`);
    const deadline = Date.now() + 60_000;
    while ((await deps.db('run_replays').where({ operator_id: operator.operatorId, id: replay.id }).first('status'))?.status === 'running') {
      if (Date.now() > deadline) throw new Error('the replay did not end');
      await sleep(200);
    }
    await deps.temporal.client.workflow.getHandle(replay.id).result();
    await recorder.save('run-replay', replay.id);
  } finally {
    await supplier.close();
  }
}
