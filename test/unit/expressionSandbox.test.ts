import { createLogger } from '../../core/logger';
import type { RunContext } from '../../core/automations/expressions';
import { ExpressionSandbox, MAX_QUEUED } from '../../sandbox/expressionSandbox';
import { EventFilters, FILTER_SUSPEND_MS, type FilterDropReason } from '../../worker/eventFilters';

const context: RunContext = {
  trigger: { amount: 250, note: 'deposit' },
  nodes: { kyc: { status: 'approved' } },
  workflow: { id: 'wf_1', name: 'W', version: 1 },
  run: { id: 'run_1', source: 'manual' },
};
const SLOW = '$contains("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", /^(a+)+$/)';
const condition = (expression: string) => ({ kind: 'condition' as const, expression, field: 'params.expression', context });

/** The longest the caller's event loop went without running a 5 ms interval while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return longest;
}

describe('the expression sandbox (child processes with a time and a memory budget)', () => {
  let sandbox: ExpressionSandbox;
  const stopped: string[] = [];
  beforeAll(() => {
    sandbox = new ExpressionSandbox({
      timeoutMs: 200,
      memoryMb: 64,
      processes: 2,
      onOverBudget: (event) => stopped.push(`${event.operatorId} ${event.code} ${event.field}`),
    });
  });
  afterAll(() => sandbox.close());

  it('answers conditions with JSONata truthiness and renders templates, keeping types', async () => {
    expect(await sandbox.evaluate('op-a', condition('trigger.amount > 100 and nodes.kyc.status = "approved"'))).toEqual({ ok: true, value: true });
    expect(await sandbox.evaluate('op-a', condition('trigger.missing'))).toEqual({ ok: true, value: false });
    expect(
      await sandbox.evaluate('op-a', {
        kind: 'render',
        params: { amount: '{{ trigger.amount }}', note: 'a {{ trigger.note }} of {{ trigger.amount }}', fixed: 3 },
        context,
      }),
    ).toEqual({
      ok: true,
      value: { amount: 250, note: 'a deposit of 250', fixed: 3 },
    });
  });

  it('an invalid or failing expression is an EXPRESSION_ERROR naming the field it was in', async () => {
    expect(await sandbox.evaluate('op-a', condition('amount >'))).toEqual({
      ok: false,
      code: 'EXPRESSION_ERROR',
      message: 'Invalid expression "amount >": Unexpected end of expression',
      field: 'params.expression',
    });
    const failed = await sandbox.evaluate('op-a', { kind: 'render', params: { body: { list: ['{{ 1 }}', '{{ $number("x") }}'] } }, context });
    expect(failed).toMatchObject({ ok: false, code: 'EXPRESSION_ERROR', field: 'params.body.list[1]' });
  });

  it('stops a backtracking regex at its budget without stalling the caller, and the next task runs', async () => {
    let outcome: unknown;
    const stall = await longestStall(async () => {
      outcome = await sandbox.evaluate('op-a', { kind: 'render', params: { ok: '{{ 1 }}', text: `x {{ ${SLOW} }}` }, context });
    });
    expect(outcome).toEqual({
      ok: false,
      code: 'EXPRESSION_TIMEOUT',
      message: 'Evaluating params.text took more than the 200 ms of CPU an expression may use',
      field: 'params.text',
    });
    // Run on the caller's thread, the regex would hold it for minutes (2^35 backtracking steps); the bound leaves room
    // for a loaded machine and for the parent starting the replacement process.
    expect(stall).toBeLessThan(500);
    expect(stopped).toContain('op-a EXPRESSION_TIMEOUT params.text');
    expect(await sandbox.evaluate('op-a', condition('true'))).toEqual({ ok: true, value: true });
  });

  it('a task that needs more than the heap limit ends its process, not the caller: EXPRESSION_MEMORY_LIMIT', async () => {
    // The expression also spends CPU (its GC near the limit counts too), so the time budget here is far above what it
    // needs to reach 64 MB: a loaded machine must not turn the memory answer into EXPRESSION_TIMEOUT.
    const roomy = new ExpressionSandbox({ timeoutMs: 3000, memoryMb: 64, processes: 1 });
    try {
      const greedy = '($f := function($s, $n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $length($f("x", 27)))';
      expect(await roomy.evaluate('op-a', condition(greedy))).toEqual({
        ok: false,
        code: 'EXPRESSION_MEMORY_LIMIT',
        message: 'Evaluating params.expression needed more than the 64 MB an expression may use',
        field: 'params.expression',
      });
      expect(await roomy.evaluate('op-a', condition('1 = 1'))).toEqual({ ok: true, value: true });
    } finally {
      await roomy.close();
    }
  });

  it("one operator's flood of slow expressions does not delay another's", async () => {
    // Slow tasks of 1.5 s each: were the noisy operator given both processes, the quiet one would wait about that long,
    // far above the bound, which leaves a loaded machine room for a process's round trip.
    const roomy = new ExpressionSandbox({ timeoutMs: 1500, memoryMb: 64, processes: 2 });
    try {
      expect(await roomy.evaluate('quiet', condition('true'))).toEqual({ ok: true, value: true });
      const flood = Array.from({ length: 2 }, () => roomy.evaluate('noisy', condition(SLOW)));
      const waits: number[] = [];
      for (let index = 0; index < 15; index += 1) {
        const started = performance.now();
        expect(await roomy.evaluate('quiet', condition('trigger.amount > 1'))).toEqual({ ok: true, value: true });
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      const outcomes = await Promise.all(flood);
      expect(outcomes.every((outcome) => !outcome.ok && outcome.code === 'EXPRESSION_TIMEOUT')).toBe(true);
      expect(Math.max(...waits)).toBeLessThan(700);
    } finally {
      await roomy.close();
    }
  });
});

describe("an operator's share of the sandbox", () => {
  it('refuses, at once and counted, what an operator queues past its share, and serves the others', async () => {
    const refused: string[] = [];
    const shared = new ExpressionSandbox({
      timeoutMs: 200,
      memoryMb: 64,
      processes: 2,
      operatorShare: 0.1,
      burstMs: 100,
      onOverBudget: (event) => refused.push(`${event.operatorId} ${event.code}`),
    });
    try {
      expect(await shared.evaluate('noisy', condition(SLOW))).toMatchObject({ ok: false, code: 'EXPRESSION_TIMEOUT' });
      const started = performance.now();
      const flood = Array.from({ length: MAX_QUEUED + 8 }, () => shared.evaluate('noisy', condition('1 = 1')));
      const early = await Promise.race([Promise.all(flood.slice(MAX_QUEUED)), new Promise((resolve) => setTimeout(resolve, 50, 'late'))]);
      expect(early).toEqual(
        Array.from({ length: 8 }, () => ({
          ok: false,
          code: 'EXPRESSION_BUDGET_EXCEEDED',
          field: 'params.expression',
          message: "Evaluating params.expression was refused: this organisation's expressions have used their share of the sandbox for now",
        })),
      );
      expect(await shared.evaluate('quiet', condition('1 = 1'))).toEqual({ ok: true, value: true });
      expect(performance.now() - started).toBeLessThan(500);
      const served = await Promise.all(flood.slice(0, MAX_QUEUED));
      expect(served.every((outcome) => outcome.ok)).toBe(true);
      expect(performance.now() - started).toBeGreaterThan(500);
      expect(refused.filter((line) => line === 'noisy EXPRESSION_BUDGET_EXCEEDED')).toHaveLength(8);
    } finally {
      await shared.close();
    }
  });
});

describe('event filters: evaluated in the sandbox, suspended past their budget', () => {
  let sandbox: ExpressionSandbox;
  beforeAll(() => {
    sandbox = new ExpressionSandbox({ timeoutMs: 100, memoryMb: 64, processes: 2 });
  });
  afterAll(() => sandbox.close());

  it('drops, counts and suspends a filter that runs past its budget, tries it again after the pause, and forgets it for a new version', async () => {
    let now = 1_000_000;
    const dropped: FilterDropReason[] = [];
    const filters = new EventFilters({ sandbox, logger: createLogger('silent'), onDropped: (reason) => dropped.push(reason), now: () => now });
    const automation = (version: number) => ({
      id: 'wf_noisy',
      operator_id: 'op-noisy',
      nodes: [],
      edges: [],
      name: 'Noisy',
      version,
      trigger_events: ['entity_event.transaction'],
      events_since: new Date(0),
    });
    const event = { id: 'ev_1', event: 'entity_event.transaction', data: { amount: 5 } } as never;
    const slow = { id: 'on', params: { event: 'entity_event.transaction', filter: SLOW } };

    expect(await filters.passes(automation(1), slow, event)).toBe(false);
    const started = performance.now();
    expect(await filters.passes(automation(1), slow, event)).toBe(false);
    expect(performance.now() - started).toBeLessThan(20);
    expect(dropped).toEqual(['timeout', 'suspended']);

    now += FILTER_SUSPEND_MS + 1;
    expect(await filters.passes(automation(1), slow, event)).toBe(false);
    expect(dropped).toEqual(['timeout', 'suspended', 'timeout']);

    const fixed = { id: 'on', params: { event: 'entity_event.transaction', filter: 'trigger.data.amount > 1' } };
    expect(await filters.passes(automation(2), fixed, event)).toBe(true);
    expect(await filters.passes(automation(2), { id: 'on', params: { event: 'entity_event.transaction', filter: 'nope(' } }, event)).toBe(false);
    expect(dropped).toEqual(['timeout', 'suspended', 'timeout', 'error']);
  });
});
