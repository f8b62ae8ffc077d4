import { isTruthy, renderParams, evaluate, type RunContext } from '../../core/automations/expressions';
import { MAX_FILLED_CHARS, NOT_PLAIN, plainPathValue, renderPlainPaths } from '../../core/automations/plainPaths';

const context: RunContext = {
  trigger: { playerId: 'p-1', amount: 150.5, vip: true, none: null, zero: 0, empty: '', tags: ['vip'], entity: { externalId: 'p-1', level: 3 } },
  nodes: { kyc: { status: 200, data: { verdict: 'clear' } }, big: { $payloadRef: 'ref_1' }, list: [{ id: 1 }] },
  workflow: { id: 'wf_1', name: 'KYC', version: 2 },
  run: { id: 'run_1', source: 'mcp' },
};

/** Params a plain walk fills: each must come out exactly as JSONata renders it. */
const PLAIN: Array<Record<string, unknown>> = [
  { url: 'https://kyc.example/players/{{ trigger.playerId }}?level={{trigger.entity.level}}' },
  { amount: '{{ trigger.amount }}', vip: '{{ trigger.vip }}', none: '{{ trigger.none }}', zero: ' {{ trigger.zero }} ' },
  { missing: '{{ trigger.nothing }}', text: 'a{{ trigger.nothing.deeper }}b', empty: '{{ trigger.empty }}' },
  { nested: { list: ['{{ nodes.kyc.data.verdict }}', 7, null, { deep: 'v{{ workflow.version }} of {{ workflow.name }}' }] }, key: '{{ run.id }}' },
  { interpolated: 'n={{ trigger.none }} b={{ trigger.vip }} x={{ trigger.amount }}' },
  { untouched: 'no templates', count: 3, flag: false },
];

/** Params only JSONata fills: the walk must hand them to the sandbox. */
const NOT_PLAIN_PARAMS: Array<Record<string, unknown>> = [
  { n: '{{ $count(trigger.tags) }}' },
  { tags: '{{ trigger.tags }}' },
  { entity: '{{ trigger.entity }}' },
  { id: '{{ nodes.list.id }}' },
  { ref: '{{ nodes.big.status }}' },
  { sum: '{{ trigger.amount + 1 }}' },
  { literal: '{{ true }}' },
  { spaced: '{{ trigger . playerId }}' },
  { inherited: '{{ trigger.constructor }}' },
  { empty: '{{ }}' },
  { mixed: ['{{ trigger.playerId }}', '{{ $uppercase(trigger.playerId) }}'] },
  { ref: { $payloadRef: 'ref_2' } },
  { deep: `{{ ${Array.from({ length: 40 }, () => 'a').join('.')} }}` },
];

describe('plain-path templates', () => {
  it.each(PLAIN)('fills %j exactly as JSONata does', async (params) => {
    expect(renderPlainPaths(params, context)).toStrictEqual(await renderParams(params, context));
  });

  it.each(NOT_PLAIN_PARAMS)('leaves %j to the sandbox', (params) => {
    expect(renderPlainPaths(params, context)).toBe(NOT_PLAIN);
  });

  it('leaves params to the sandbox once the strings they fill pass the budget, so a template cannot multiply a value in the run', () => {
    const large = { ...context, trigger: { note: 'n'.repeat(MAX_FILLED_CHARS / 4) } };
    const repeated = (times: number) => ({ text: Array.from({ length: times }, () => '{{ trigger.note }}').join(' ') });
    expect(renderPlainPaths(repeated(4), large)).toEqual({ text: Array.from({ length: 4 }, () => 'n'.repeat(MAX_FILLED_CHARS / 4)).join(' ') });
    expect(renderPlainPaths(repeated(5), large)).toBe(NOT_PLAIN);
    expect(
      renderPlainPaths({ a: '{{ trigger.note }}', b: ['{{ trigger.note }}', { c: '{{ trigger.note }} {{ trigger.note }} {{ trigger.note }}' }] }, large),
    ).toBe(NOT_PLAIN);
  });

  it('reads a condition that is a plain path with the truthiness JSONata gives it', async () => {
    for (const expression of [
      'trigger.vip',
      'trigger.zero',
      'trigger.empty',
      'trigger.none',
      'trigger.nothing',
      'nodes.kyc.data.verdict',
      ' trigger.amount ',
    ]) {
      const value = plainPathValue(expression, context);
      expect(value).not.toBe(NOT_PLAIN);
      expect(isTruthy(value)).toBe(isTruthy(await evaluate(expression, context)));
    }
    for (const expression of ['trigger.amount > 100', 'trigger.tags', 'trigger.entity', '$exists(trigger.vip)', 'trigger.vip and trigger.zero'])
      expect(plainPathValue(expression, context)).toBe(NOT_PLAIN);
  });
});
