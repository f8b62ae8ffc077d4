import { backtestPage, conditionDecisions, type BacktestSubject, type Check, type CheckOutcome, type HistoryEvent } from '../../core/automations/backtest';
import { actionChanges, emptyTally, mergeTallies } from '../../core/automations/backtestTally';
import { wouldDo } from '../../core/automations/backtestWouldDo';
import { evaluate as evaluateExpression, isTruthy } from '../../core/automations/expressions';

/** The sandbox's answer, computed in process: the evaluator is deterministic given these outcomes. */
const inProcess = async (checks: Check[]): Promise<CheckOutcome[]> =>
  Promise.all(
    checks.map(async (check) => {
      try {
        return { ok: true as const, value: isTruthy(await evaluateExpression(check.expression, check.context)) };
      } catch (error) {
        return { ok: false as const, code: 'EXPRESSION_ERROR', message: (error as Error).message };
      }
    }),
  );

const event = (seq: number, player: string, data: Record<string, unknown>, originWorkflowId: string | null = null): HistoryEvent => ({
  seq: String(seq),
  event: { id: `evt_${seq}`, event: 'entity_event.transaction', entity: { id: `ent-${player}`, externalId: player }, data },
  originWorkflowId,
});

const subject = (nodes: BacktestSubject['definition']['nodes'], edges: BacktestSubject['definition']['edges'], sampleOutputs = {}): BacktestSubject => ({
  automationId: 'wf_1',
  name: 'Bonus',
  version: 1,
  definition: { nodes, edges },
  sampleOutputs,
});

const trigger = { id: 'deposit', type: 'trigger.event' as const, params: { event: 'entity_event.transaction', filter: 'trigger.data.type = "deposit"' } };

describe('backtestPage', () => {
  const bonus = subject(
    [
      trigger,
      { id: 'big', type: 'condition', params: { expression: 'trigger.data.amount > 100' } },
      { id: 'mail', type: 'action.send_email', params: { to: '{{ trigger.data.email }}', subject: 'Hi {{ trigger.entity.externalId }}', text: 'x' } },
    ],
    [
      { from: 'deposit', to: 'big' },
      { from: 'big', to: 'mail', when: true },
    ],
  );

  it('starts runs as a live dispatch would, evaluates conditions and counts stubbed actions per player, never rendering personal data', async () => {
    const events = [
      event(1, 'p-1', { type: 'deposit', amount: 500, email: 'one@example.test' }),
      event(2, 'p-2', { type: 'deposit', amount: 50 }),
      event(3, 'p-1', { type: 'withdrawal', amount: 900 }),
      event(4, 'p-3', { type: 'deposit', amount: 700 }, 'wf_1'),
      event(5, 'p-1', { type: 'deposit', amount: 101 }),
    ];
    const { tally, players } = await backtestPage(bonus, events, inProcess);
    expect(tally).toMatchObject({
      events: 4,
      runs: 3,
      failedRuns: 0,
      undecidableRuns: 0,
      steps: { deposit: { completed: 3 }, big: { completed: 3 }, mail: { completed: 2, skipped: 1 } },
      actionsByType: { 'action.send_email': 2 },
      consumed: { actions: 2, aiActions: 0 },
    });
    expect([...players]).toEqual([['ent-p-1', { externalId: 'p-1', actions: 2 }]]);
    expect(tally.samples[0]).toEqual({
      nodeId: 'mail',
      type: 'action.send_email',
      playerId: 'p-1',
      method: 'EMAIL',
      target: '{{ trigger.data.email }}',
      template: 'Hi p-1',
    });
    expect(JSON.stringify(tally)).not.toContain('one@example.test');
    expect(await backtestPage(bonus, events, inProcess)).toEqual({ tally, players });
  });

  it('a condition that fails fails its run; a filter that fails starts nothing', async () => {
    const broken = subject([{ ...trigger, params: { ...trigger.params, filter: '$number("x")' } }], []);
    expect((await backtestPage(broken, [event(1, 'p-1', { type: 'deposit' })], inProcess)).tally.runs).toBe(0);
    const failing = subject(
      [trigger, { id: 'big', type: 'condition', params: { expression: '$number("x") > 1' } }, bonus.definition.nodes[2]!],
      bonus.definition.edges,
    );
    const { tally } = await backtestPage(failing, [event(1, 'p-1', { type: 'deposit', amount: 5 })], inProcess);
    expect(tally).toMatchObject({ runs: 1, failedRuns: 1, steps: { big: { failed: 1 }, mail: { skipped: 1 } } });
  });

  it('a condition reading a stubbed action is undecidable without a sample, and so is what only it reaches; a sample decides it', async () => {
    const kyc = subject(
      [
        trigger,
        { id: 'kyc', type: 'action.http_request', params: { method: 'GET', url: 'https://kyc.example/{{ trigger.entity.id }}' } },
        { id: 'ok', type: 'condition', params: { expression: 'nodes.kyc.data.verified' } },
        { id: 'wait', type: 'action.wait_for_event', params: { event: 'entity_event.transaction', timeoutSeconds: 60 } },
        { id: 'mail', type: 'action.send_email', params: { to: 'a@b.c', subject: 's', text: 't' } },
      ],
      [
        { from: 'deposit', to: 'kyc' },
        { from: 'kyc', to: 'ok' },
        { from: 'ok', to: 'wait', when: true },
        { from: 'wait', to: 'mail', when: true },
      ],
    );
    const events = [event(1, 'p-1', { type: 'deposit' })];
    expect(conditionDecisions(kyc)).toEqual([{ nodeId: 'ok', decidedBy: 'undecidable', reads: ['kyc'] }]);
    expect((await backtestPage(kyc, events, inProcess)).tally).toMatchObject({
      undecidableRuns: 1,
      steps: { kyc: { completed: 1 }, ok: { undecidable: 1 }, wait: { undecidable: 1 }, mail: { undecidable: 1 } },
    });
    const sampled = { ...kyc, sampleOutputs: { kyc: { status: 200, data: { verified: true } } } };
    expect(conditionDecisions(sampled)).toEqual([{ nodeId: 'ok', decidedBy: 'sampleOutput', reads: ['kyc'] }]);
    expect((await backtestPage(sampled, events, inProcess)).tally.steps).toMatchObject({
      ok: { completed: 1 },
      wait: { completed: 1 },
      mail: { undecidable: 1 },
    });
    const waited = { ...kyc, sampleOutputs: { ...sampled.sampleOutputs, wait: { happened: 'event' } } };
    expect((await backtestPage(waited, events, inProcess)).tally).toMatchObject({ undecidableRuns: 0, steps: { mail: { completed: 1 } } });
  });
});

describe('tallies', () => {
  it('add up page by page and keep five samples a step; the diff lists the steps whose counts differ', () => {
    const sample = wouldDo({ id: 'mail', type: 'action.send_email', params: { to: 'x', subject: 'y', text: 'z' } }, 'p-1');
    const page = { ...emptyTally(), runs: 2, actionsByNode: { mail: 2 }, samples: [sample, sample, sample] };
    const both = mergeTallies(page, page);
    expect(both).toMatchObject({ runs: 4, actionsByNode: { mail: 4 } });
    expect(both.samples).toHaveLength(5);
    expect(
      actionChanges(both, { ...emptyTally(), actionsByNode: { mail: 4, flag: 1 } }, (id) => (id === 'mail' ? 'action.send_email' : 'action.set_state')),
    ).toEqual([{ nodeId: 'flag', type: 'action.set_state', backtested: 0, active: 1 }]);
  });
});
