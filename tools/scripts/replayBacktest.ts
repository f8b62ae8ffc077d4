import { post } from '../stack/stackClient';
import type { Recorder } from './replayRecorder';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A backtest job (workflows/backtest.ts) of a draft over a few stored deposits, recorded once it has completed. */
export async function recordBacktest(recorder: Recorder): Promise<void> {
  const { url, operator, deps } = recorder;
  const key = operator.apiKey;
  const from = new Date(Date.now() - 1000).toISOString();
  await post(url, '/operator-data-api/entities', { entityType: 'player', externalId: 'bt-1', data: {} }, key);
  for (const amount of [50, 700, 1500]) {
    await post(url, '/operator-data-api/entities/bt-1/events', { eventType: 'transaction', data: { type: 'deposit', amount, currency: 'EUR' } }, key);
  }
  const definition = (threshold: number) => ({
    nodes: [
      { id: 'deposit', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
      { id: 'big', type: 'condition', params: { expression: `trigger.data.amount > ${threshold}` } },
      { id: 'flag', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'bonus', value: true } },
    ],
    edges: [
      { from: 'deposit', to: 'big' },
      { from: 'big', to: 'flag', when: true },
    ],
  });
  const automation = (await post(url, '/workflows-api/workflows', { name: 'Replay: backtest', active: false, ...definition(1000) }, key)).data.id as string;
  const body = { from, to: new Date(Date.now() + 1000).toISOString(), definition: definition(500) };
  const backtest = (await post(url, `/workflows-api/workflows/${automation}/backtests`, body, key)).data;
  const deadline = Date.now() + 60_000;
  while ((await deps.db('backtests').where({ operator_id: operator.operatorId, id: backtest.id }).first('status'))?.status === 'running') {
    if (Date.now() > deadline) throw new Error('the backtest did not end');
    await sleep(200);
  }
  await deps.temporal.client.workflow.getHandle(backtest.id).result();
  await recorder.save('backtest', backtest.id);
}
