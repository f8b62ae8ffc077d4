import { createLogger } from '../../core/logger';
import type { RunContext } from '../../core/automations/expressions';
import { ExpressionSandbox } from '../../sandbox/expressionSandbox';
import { COLD_FACTOR, COLD_TASKS, SandboxProcess } from '../../sandbox/sandboxProcess';
import { EventFilters, type FilterFailure, type FilterWhere } from '../../worker/eventFilters';
import { BatchedEvaluations } from '../../worker/batchedEvaluations';
import { TriggerPlans } from '../../worker/eventRouter';

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

  it("gives a new process's first tasks COLD_FACTOR times the budget (code V8 has not compiled yet), the rest the budget", async () => {
    const one = new SandboxProcess(64);
    const timed = async () => {
      const started = performance.now();
      const result = await one.run(condition(SLOW), 100);
      return { kind: result.kind, ms: performance.now() - started };
    };
    try {
      // A process's CPU time is at most its wall-clock time, so a task stopped after COLD_FACTOR budgets of CPU took at least that long.
      const cold = await timed();
      expect(cold.kind).toBe('timeout');
      expect(cold.ms).toBeGreaterThanOrEqual(100 * COLD_FACTOR);
      for (let task = 0; task < COLD_TASKS; task += 1) expect((await one.run(condition('true'), 100)).kind).toBe('outcome');
      const warm = await timed();
      expect(warm.kind).toBe('timeout');
      expect(warm.ms).toBeGreaterThanOrEqual(100);
    } finally {
      one.kill();
    }
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
  it('makes what an operator queues past its share wait for it, serves the others meanwhile, and refuses only what waited its whole wait', async () => {
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
      // Its time is charged once the killed process has been replaced.
      for (let tries = 0; tries < 100 && shared.waitMs('noisy') === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(shared.waitMs('noisy')).toBeGreaterThan(500);
      const started = performance.now();
      // A wait long enough for a loaded machine: each of the 40 is charged its CPU time at a tenth share, after the debt.
      const flood = Array.from({ length: 40 }, () => shared.evaluate('noisy', condition('1 = 1'), { waitMs: 60_000 }));
      expect(await shared.evaluate('quiet', condition('1 = 1'))).toEqual({ ok: true, value: true });
      expect(performance.now() - started).toBeLessThan(500);
      const hurried = await shared.evaluate('noisy', condition('1 = 1'), { waitMs: 50 });
      expect(hurried).toEqual({
        ok: false,
        code: 'EXPRESSION_BUDGET_EXCEEDED',
        field: 'params.expression',
        message: "Evaluating params.expression was refused: this organisation's expressions have used their share of the sandbox for now",
      });
      const served = await Promise.all(flood);
      expect(served.every((outcome) => outcome.ok)).toBe(true);
      expect(performance.now() - started).toBeGreaterThan(500);
      expect(refused.filter((line) => line === 'noisy EXPRESSION_BUDGET_EXCEEDED')).toHaveLength(1);
    } finally {
      await shared.close();
    }
  });

  it("answers an input it cannot hand to a process (nested past the serializer) as the expression's error, not a sandbox fault", async () => {
    const plain = new ExpressionSandbox({ timeoutMs: 200, memoryMb: 64, processes: 1 });
    try {
      let deep: unknown = 1;
      for (let level = 0; level < 200_000; level += 1) deep = { x: deep };
      const outcome = await plain.evaluate('op', { ...condition('1 = 1'), context: { ...context, trigger: deep } });
      expect(outcome).toMatchObject({ ok: false, code: 'EXPRESSION_ERROR', field: 'params.expression' });
      expect(await plain.evaluate('op', condition('1 = 1'))).toEqual({ ok: true, value: true });
    } finally {
      await plain.close();
    }
  });
});

describe('event filters: inline where their shape allows, in the sandbox otherwise, never suspended', () => {
  let sandbox: ExpressionSandbox;
  beforeAll(() => {
    sandbox = new ExpressionSandbox({ timeoutMs: 100, memoryMb: 64, processes: 2 });
  });
  afterAll(() => sandbox.close());

  it('judges an everyday filter inline, a slow one in the sandbox each time (a failure, not a drop), and an invalid one as an error', async () => {
    const judged: FilterWhere[] = [];
    const failed: FilterFailure[] = [];
    const filters = new EventFilters({
      sandbox,
      logger: createLogger('silent'),
      onJudged: (where) => judged.push(where),
      onFailed: (reason) => failed.push(reason),
    });
    const plans = new TriggerPlans();
    const triggerWith = (filter: string, version: number) =>
      plans.triggersOf({
        id: 'wf_noisy',
        operator_id: 'op-noisy',
        nodes: [{ id: 'on', type: 'trigger.event', params: { event: 'entity_event.transaction', filter } }],
        edges: [],
        name: 'Noisy',
        version,
        trigger_events: ['entity_event.transaction'],
        events_since: new Date(0),
      })[0]!;
    const event = { id: 'ev_1', event: 'entity_event.transaction', data: { amount: 5 } } as never;

    expect(await filters.judge(triggerWith('trigger.data.amount > 1', 1), event)).toEqual({ kind: 'pass' });
    expect(await filters.judge(triggerWith('trigger.data.amount > 10', 2), event)).toEqual({ kind: 'reject' });
    expect(judged).toEqual(['inline', 'inline']);

    const slow = triggerWith(SLOW, 3);
    expect(await filters.judge(slow, event)).toMatchObject({ kind: 'failed', code: 'EXPRESSION_TIMEOUT' });
    expect(await filters.judge(slow, event)).toMatchObject({ kind: 'failed', code: 'EXPRESSION_TIMEOUT' });
    expect(await filters.judge(triggerWith('$uppercase(trigger.data.note) = "X"', 4), event)).toEqual({ kind: 'reject' });
    expect(await filters.judge(triggerWith('nope(', 5), event)).toMatchObject({ kind: 'failed', code: 'EXPRESSION_ERROR' });
    expect(judged).toEqual(['inline', 'inline', 'sandbox', 'sandbox', 'sandbox', 'sandbox']);
    expect(failed).toEqual(['timeout', 'timeout', 'error']);
  });
});

describe('batched evaluations: the filters one operator asks for in one turn go to a process together', () => {
  let sandbox: ExpressionSandbox;
  beforeAll(() => {
    sandbox = new ExpressionSandbox({ timeoutMs: 100, memoryMb: 64, processes: 2 });
  });
  afterAll(() => sandbox.close());

  it('sends one batch for many filters; a batch a filter stops goes one to a message, now and for a while', async () => {
    const sent: string[] = [];
    const counting = {
      evaluate: (operatorId: string, task: Parameters<ExpressionSandbox['evaluate']>[1], options?: { waitMs?: number }) => {
        sent.push(task.kind === 'batch' ? `batch of ${task.tasks.length}` : task.kind);
        return sandbox.evaluate(operatorId, task, options);
      },
    };
    const batched = new BatchedEvaluations(counting);
    const quick = await Promise.all(Array.from({ length: 30 }, (_, index) => batched.evaluate('op', condition(`${index} >= 15`))));
    expect(quick.map((outcome) => outcome.ok && outcome.value)).toEqual(Array.from({ length: 30 }, (_, index) => index >= 15));
    expect(sent).toEqual(['batch of 30']);

    sent.length = 0;
    const mixed = await Promise.all([
      batched.evaluate('op', condition('1 = 1')),
      batched.evaluate('op', condition(SLOW)),
      batched.evaluate('op', condition('nope(')),
    ]);
    expect(mixed[0]).toEqual({ ok: true, value: true });
    expect(mixed[1]).toMatchObject({ ok: false, code: 'EXPRESSION_TIMEOUT' });
    expect(mixed[2]).toMatchObject({ ok: false, code: 'EXPRESSION_ERROR' });
    expect(sent).toEqual(['batch of 3', 'condition', 'condition', 'condition']);

    sent.length = 0;
    await Promise.all([batched.evaluate('op', condition('1 = 1')), batched.evaluate('op', condition('2 = 2')), batched.evaluate('op', condition('3 = 3'))]);
    expect(sent).toEqual(['condition', 'batch of 2']);
  });
});

describe('what an expression may produce', () => {
  let sandbox: ExpressionSandbox;
  beforeAll(() => {
    sandbox = new ExpressionSandbox({ timeoutMs: 1_000, memoryMb: 256, processes: 1 });
  });
  afterAll(() => sandbox.close());

  it('refuses rendered params past 10 MB (a string doubled twenty times), naming the field, and keeps what fits', async () => {
    const doubled = `{{ ($s := "xxxxxxxxxxxxxxxx"; ${Array.from({ length: 20 }, () => '$s := $s & $s;').join(' ')} $s) }}`;
    const render = (value: string) => ({ kind: 'render' as const, params: { externalId: 'p-1', key: 'note', value }, context });
    expect(await sandbox.evaluate('op', render(doubled))).toEqual({
      ok: false,
      code: 'EXPRESSION_OUTPUT_TOO_LARGE',
      field: 'params.value',
      message: 'The value of params.value would be 16.0 MB, more than the 10.0 MB an expression may produce',
    });
    const fits = doubled.replace(/\$s := \$s & \$s; \$s\)/, '$s)');
    const outcome = await sandbox.evaluate('op', render(fits));
    expect(outcome.ok && (outcome.value as { value: string }).value.length).toBe(8 * 1024 * 1024);
  });
});

describe("an expression's error message", () => {
  it('is kept to 2,000 characters, whatever value JSONata quotes', async () => {
    const sandbox = new ExpressionSandbox({ timeoutMs: 1_000, memoryMb: 128, processes: 1 });
    try {
      const outcome = await sandbox.evaluate('op', {
        kind: 'condition',
        expression: '$number($pad("", 100000, "a"))',
        field: 'params.expression',
        context,
      });
      expect(outcome).toMatchObject({ ok: false, code: 'EXPRESSION_ERROR' });
      const message = (outcome as { message: string }).message;
      expect(message).toHaveLength(2_000);
      expect(message.endsWith('…')).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
