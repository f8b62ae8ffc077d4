import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import type { AutomationDefinition, AutomationEdge, AutomationNode } from '../../core/automations/types';
import { calledBetween, waitUntil, workflowHarness } from './automationRunHarness';

const start: AutomationNode = { id: 'start', type: 'trigger.manual', params: {} };
const node = (id: string, type: AutomationNode['type'], params: Record<string, unknown>): AutomationNode => ({ id, type, params });
const def = (nodes: AutomationNode[], edges: AutomationEdge[]): AutomationDefinition => ({ nodes: [start, ...nodes], edges });
const statuses = (nodes: Array<{ id: string; status: string }>) => Object.fromEntries(nodes.map(({ id, status }) => [id, status]));

/**
 * The automation-run workflow itself (workflows/automationRun.ts), on a real Temporal server with its activities as
 * plain functions: what it decides — branches, waits, cancellation, the marketing gate — and which activities it calls
 * for it. Beside the saved-history replays (test/replay), which check it stays deterministic.
 */
describe('automationRunV2Workflow with plain activities', () => {
  let harness: Awaited<ReturnType<typeof workflowHarness>>;
  beforeAll(async () => {
    harness = await workflowHarness();
  });
  afterAll(() => harness.close());

  it('takes the branch its condition names and skips the other; only the taken branch writes', async () => {
    const definition = def(
      [
        node('big', 'condition', { expression: 'trigger.amount > 100' }),
        node('vip', 'action.set_state', { externalId: '{{ trigger.playerId }}', key: 'tier', value: 'vip' }),
        node('std', 'action.set_state', { externalId: '{{ trigger.playerId }}', key: 'tier', value: 'std' }),
      ],
      [
        { from: 'start', to: 'big' },
        { from: 'big', to: 'vip', when: true },
        { from: 'big', to: 'std', when: false },
      ],
    );
    for (const [amount, taken, skipped] of [
      [500, 'vip', 'std'],
      [50, 'std', 'vip'],
    ] as const) {
      const { handle, seen } = await harness.start(definition, { playerId: 'p-1', amount });
      expect(await handle.result()).toMatchObject({ kind: 'finished' });
      expect(seen.finished).toMatchObject({ status: 'completed', executed: { actions: 1, aiActions: 0 } });
      expect(statuses(seen.finished!.nodes)).toEqual({ start: 'completed', big: 'completed', [taken]: 'completed', [skipped]: 'skipped' });
      expect(seen.finished!.nodes.find((result) => result.id === 'big')).toMatchObject({ output: { result: amount > 100 }, branch: amount > 100 });
      expect(calledBetween(seen)).toEqual(['automationEvaluate', 'automationWriteData']);
      expect(seen.calls.find((call) => call.name === 'automationWriteData')!.input).toMatchObject({ externalId: 'p-1', key: 'tier', value: taken });
    }
  });

  it('a wait for an event that does not come times out and follows its when: false edge', async () => {
    const { handle, seen } = await harness.start(
      def(
        [
          node('wait', 'action.wait_for_event', { event: 'entity_event.transaction', externalId: 'p-1', timeoutSeconds: 1 }),
          node('came', 'action.note', { text: 'deposited' }),
          node('late', 'action.note', { text: 'no deposit' }),
          node('always', 'action.note', { text: 'either way' }),
        ],
        [
          { from: 'start', to: 'wait' },
          { from: 'wait', to: 'came', when: true },
          { from: 'wait', to: 'late', when: false },
          { from: 'wait', to: 'always' },
        ],
      ),
      {},
    );
    await handle.result();
    expect(statuses(seen.finished!.nodes)).toEqual({ start: 'completed', wait: 'completed', came: 'skipped', late: 'completed', always: 'completed' });
    expect(seen.finished!.nodes.find((result) => result.id === 'wait')).toMatchObject({ output: { happened: 'timeout' }, branch: false });
    expect(calledBetween(seen)).toEqual(['registerRunWait', 'endRunWait']);
  });

  it('a wait the dispatcher signals an event to follows its when: true edge with the event as output', async () => {
    const { handle, seen } = await harness.start(
      def(
        [
          node('wait', 'action.wait_for_event', { event: 'entity_event.transaction', externalId: 'p-1', timeoutSeconds: 600 }),
          node('came', 'action.note', { text: 'deposited {{ nodes.wait.event.data.type }}' }),
          node('late', 'action.note', { text: 'no deposit' }),
        ],
        [
          { from: 'start', to: 'wait' },
          { from: 'wait', to: 'came', when: true },
          { from: 'wait', to: 'late', when: false },
        ],
      ),
      {},
    );
    await waitUntil(() => seen.calls.some((call) => call.name === 'registerRunWait'));
    await handle.signal('waitEvent', { nodeId: 'wait', eventId: 'evt_1', seq: '1' });
    await handle.result();
    expect(statuses(seen.finished!.nodes)).toEqual({ start: 'completed', wait: 'completed', came: 'completed', late: 'skipped' });
    expect(seen.finished!.nodes.find((result) => result.id === 'wait')).toMatchObject({ output: { happened: 'event', event: { id: 'evt_1' } }, branch: true });
    expect(seen.finished!.nodes.find((result) => result.id === 'came')).toMatchObject({ input: { text: 'deposited deposit' }, output: { noted: true } });
  });

  it('a cancelled run cuts its delay short, starts nothing after it, is recorded cancelled and ends cancelled in Temporal', async () => {
    const { handle, seen } = await harness.start(
      def(
        [node('pause', 'action.delay', { seconds: 3_600 }), node('after', 'action.note', { text: 'never' })],
        [
          { from: 'start', to: 'pause' },
          { from: 'pause', to: 'after' },
        ],
      ),
      {},
    );
    await waitUntil(() => seen.calls.some((call) => call.name === 'markAutomationRunWaiting'));
    await handle.cancel();
    const failure = await handle.result().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect(seen.finished).toMatchObject({ status: 'cancelled', output: null, error: { code: 'RUN_CANCELLED', nodeId: 'pause' } });
    expect(statuses(seen.finished!.nodes)).toEqual({ start: 'completed', pause: 'cancelled', after: 'skipped' });
  });

  it('the gate suppresses a marketing step: not performed, counted as no Action, its output names the rule', async () => {
    const definition = def(
      [node('mail', 'action.send_email', { to: 'p@example.test', subject: 'Bonus', text: 'Take it', purpose: 'bonus' })],
      [{ from: 'start', to: 'mail' }],
    );
    const refused = await harness.start(
      definition,
      { playerId: 'p-9' },
      { gate: (input) => ({ rule: 'no_consent', playerId: input.playerId, stateHash: 'h1' }) },
    );
    await refused.handle.result();
    expect(refused.seen.finished).toMatchObject({ status: 'completed', executed: { actions: 0, aiActions: 0 } });
    expect(refused.seen.finished!.nodes.find((result) => result.id === 'mail')).toMatchObject({
      status: 'completed',
      output: { suppressed: true, rule: 'no_consent', playerId: 'p-9', stateHash: 'h1' },
    });
    expect(calledBetween(refused.seen)).toEqual(['checkMarketingGate']);
    expect(refused.seen.calls.find((call) => call.name === 'checkMarketingGate')!.input).toMatchObject({
      playerId: 'p-9',
      actionType: 'action.send_email',
      step: { purpose: 'bonus', channel: 'email' },
    });

    const allowed = await harness.start(definition, { playerId: 'p-9' });
    await allowed.handle.result();
    expect(allowed.seen.finished).toMatchObject({ status: 'completed', executed: { actions: 1, aiActions: 0 } });
    expect(calledBetween(allowed.seen)).toEqual(['checkMarketingGate', 'sendEmail']);
  });

  it('action.note runs inside the workflow: no activity but the begin and end steps', async () => {
    const { handle, seen } = await harness.start(
      def([node('note', 'action.note', { text: 'hello {{ trigger.playerId }}' })], [{ from: 'start', to: 'note' }]),
      {
        playerId: 'p-3',
      },
    );
    await handle.result();
    expect(seen.finished).toMatchObject({ status: 'completed', output: { noted: true } });
    expect(seen.finished!.nodes.find((result) => result.id === 'note')).toMatchObject({ input: { text: 'hello p-3' }, output: { noted: true } });
    expect(calledBetween(seen)).toEqual([]);
  });
});
