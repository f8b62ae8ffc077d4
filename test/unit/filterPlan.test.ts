import { evaluate, isTruthy, type RunContext } from '../../core/automations/expressions';
import { NOT_INLINE, passesInline, planFilter } from '../../core/automations/filterPlan';

const event = (data: unknown, entity: unknown = { externalId: 'p-1', entityType: 'player' }): RunContext => ({
  trigger: { id: 'evt_1', event: 'entity_event.transaction', entity, data },
  nodes: {},
  workflow: { id: 'wf_1', name: 'W', version: 1 },
  run: { id: '', source: 'event' },
});

/** Events of every shape a filter meets: scalars of each type, missing fields, nulls, arrays and objects on the way. */
const EVENTS: RunContext[] = [
  event({ type: 'deposit', amount: 250_000, currency: 'EUR', vip: true }),
  event({ type: 'withdrawal', amount: 5, currency: 'GBP', vip: false }),
  event({ type: 'deposit', amount: '250000', vip: 'yes' }),
  event({ type: null, amount: null, vip: null }),
  event({}),
  event({ type: ['deposit'], amount: [1, 2], vip: [true] }),
  event({ type: { nested: 'deposit' }, amount: { value: 1 }, x: { y: 1 } }),
  event({ type: 'deposit', amount: 0, vip: 0, country: 'MT', x: '' }),
  event(null),
  event([{ type: 'deposit' }]),
  event({ type: 'deposit', amount: -12.5, country: 'DE', x: 0 }, null),
];

const INLINE = [
  'trigger.data.type = "deposit"',
  '"deposit" = trigger.data.type',
  'trigger.data.amount = 250000',
  'trigger.data.amount != 5',
  'trigger.data.amount > 100000',
  'trigger.data.amount <= 0',
  'trigger.data.amount < -12',
  'trigger.data.type = "deposit" and trigger.data.amount > 100000',
  'trigger.data.type = "withdrawal" or trigger.data.vip',
  'trigger.data.vip = true',
  'trigger.data.vip',
  'trigger.data.type = null',
  'trigger.data.country in ["MT", "DE"]',
  'trigger.data.country in "MT"',
  '$not(trigger.data.vip)',
  '$exists(trigger.data.x) and 1 = 1',
  '$exists(trigger.data.x)',
  '(trigger.data.amount >= 5)',
  'trigger.entity.externalId = "p-1"',
  'trigger.data.type < "e"',
  'trigger.data.missing.deeper = 1',
  'trigger.`data`.type = "deposit"',
  'trigger.data.amount > 5 and trigger.data.type = "deposit" and trigger.data.currency != "GBP"',
];

const SANDBOX = [
  '$match(trigger.data.type, /dep/)',
  'trigger.data.amount * 2 > 5',
  '$count(trigger.data.amount) > 1',
  'trigger.data[0].type = "deposit"',
  'trigger.data.type = $x',
  '$uppercase(trigger.data.type) = "DEPOSIT"',
  'trigger.data.amount > 5 ? true : false',
  'trigger.data.amount ~> $string() = "5"',
  '$$.trigger.data.type = "deposit"',
];

async function jsonataPasses(source: string, context: RunContext): Promise<boolean | 'error'> {
  try {
    return isTruthy(await evaluate(source, context));
  } catch {
    return 'error';
  }
}

describe('trigger filters judged inline', () => {
  it.each(INLINE)('%s answers as JSONata does wherever it answers, and leaves the rest to the sandbox', async (source) => {
    const plan = planFilter(source);
    expect(plan.inline).not.toBeNull();
    let answered = 0;
    for (const context of EVENTS) {
      const inline = passesInline(plan.inline!, context);
      if (inline === NOT_INLINE) continue;
      answered += 1;
      expect({ context: context.trigger, inline }).toEqual({ context: context.trigger, inline: await jsonataPasses(source, context) });
    }
    expect(answered).toBeGreaterThanOrEqual(EVENTS.length / 3);
  });

  it.each(SANDBOX)('%s needs the sandbox', (source) => {
    expect(planFilter(source).inline).toBeNull();
  });

  it('answers NOT_INLINE where JSONata would refuse or map: a comparison of another type, an array on the way', () => {
    const inline = planFilter('trigger.data.amount > 5').inline!;
    expect(passesInline(inline, event({ amount: 'x' }))).toBe(NOT_INLINE);
    expect(passesInline(inline, event({ amount: null }))).toBe(NOT_INLINE);
    expect(passesInline(inline, event([{ amount: 9 }]))).toBe(NOT_INLINE);
  });

  it('indexes the top-level equality of a filter and of a conjunction, never a disjunction', () => {
    expect(planFilter('trigger.data.amount = 5').index).toEqual({ names: ['trigger', 'data', 'amount'], values: [5] });
    expect(planFilter('trigger.data.amount > 1 and "deposit" = trigger.data.type').index).toEqual({ names: ['trigger', 'data', 'type'], values: ['deposit'] });
    expect(planFilter('trigger.data.country in ["MT", "DE"]').index).toEqual({ names: ['trigger', 'data', 'country'], values: ['MT', 'DE'] });
    expect(planFilter('trigger.data.amount = 5 or trigger.data.vip').index).toBeNull();
    expect(planFilter('$match(trigger.data.type, /x/) and trigger.data.amount = 5').index).toBeNull();
  });

  it('sends a filter that does not compile to the sandbox, which answers its error', () => {
    expect(planFilter('trigger.data.amount >')).toEqual({ inline: null, index: null });
  });
});
