import type { AutomationDefinition } from '../../core/automations/types';
import type { FinishRunInput } from '../../core/workflowContracts';
import { waitUntil, workflowHarness } from './automationRunHarness';

const RUNS = 4;
const CACHED = 2;

const waitForDeposit: AutomationDefinition = {
  nodes: [
    { id: 'start', type: 'trigger.manual', params: {} },
    { id: 'wait', type: 'action.wait_for_event', params: { event: 'entity_event.transaction', externalId: 'p-1', timeoutSeconds: 600 } },
    { id: 'came', type: 'action.note', params: { text: 'deposited' } },
  ],
  edges: [
    { from: 'start', to: 'wait' },
    { from: 'wait', to: 'came', when: true },
  ],
};

/**
 * A worker keeps at most `WORKER_MAX_CACHED_WORKFLOWS` workflows between their tasks (docs/workflows.md "Runs a worker
 * keeps between tasks"), so runs that wait are evicted; each must replay its history and go on when its event comes.
 */
describe('runs evicted from a worker cache', () => {
  let harness: Awaited<ReturnType<typeof workflowHarness>>;
  beforeAll(async () => {
    harness = await workflowHarness({ maxCachedWorkflows: CACHED });
  });
  afterAll(() => harness.close());

  it(`a worker caching ${CACHED} holds at most ${CACHED} of ${RUNS} waiting runs, and every run goes on when its event comes`, async () => {
    const handles = [];
    for (let i = 0; i < RUNS; i += 1) {
      const { handle, seen } = await harness.start(waitForDeposit, {});
      await waitUntil(() => seen.calls.some((call) => call.name === 'registerRunWait'));
      handles.push(handle);
    }
    const last = (await harness.start(waitForDeposit, {})).seen;
    await waitUntil(() => last.calls.some((call) => call.name === 'registerRunWait'));
    expect(harness.worker.getStatus().numCachedWorkflows).toBeLessThanOrEqual(CACHED);

    for (const [i, handle] of handles.entries()) await handle.signal('waitEvent', { nodeId: 'wait', eventId: `evt_${i}`, seq: '1' });
    for (const handle of handles) expect(await handle.result()).toMatchObject({ kind: 'finished' });
    const finished = last.calls.filter((call) => call.name === 'finishAutomationRun').map((call) => call.input as FinishRunInput);
    expect(finished.map((run) => run.status)).toEqual(Array(RUNS).fill('completed'));
    const events = finished.map((run) => (run.nodes.find((node) => node.id === 'wait')?.output as { event?: { id: string } }).event?.id);
    expect(events.sort()).toEqual(Array.from({ length: RUNS }, (_, i) => `evt_${i}`));
  }, 60_000);
});
