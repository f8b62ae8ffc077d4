import {
  compileProblem,
  contextFor,
  evaluate,
  hasTemplates,
  isTruthy,
  renderParams,
  templateExpressions,
  type RunContext,
} from '../../core/automations/expressions';

/**
 * Evaluates as the workflow sandbox does, where the clock stands still during a workflow task: the 5 s timeout cannot
 * bite, so only the step budget stops a loop (on a loaded machine the clock could otherwise run out first).
 */
async function withStoppedClock<T>(work: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({ now: Date.now() });
  try {
    return await work();
  } finally {
    jest.useRealTimers();
  }
}

const context: RunContext = {
  trigger: { amount: 150000, name: 'Ada', tags: ['vip', 'new'], entity: { externalId: 'p-1' }, missing: null },
  nodes: { fetch: { status: 200, body: { score: 7 } } },
  workflow: { id: 'wf_1', name: 'Big deposit alert', version: 2 },
  run: { id: 'run_1', source: 'manual' },
};

describe('workflow expressions', () => {
  it('reports compile problems', () => {
    expect(compileProblem('trigger.amount > 100000')).toBeNull();
    expect(compileProblem('trigger.amount >')).toBe('Unexpected end of expression');
    expect(compileProblem('')).toBe('Unexpected end of expression');
  });

  it('evaluates over the run context', async () => {
    await expect(evaluate('trigger.amount > 100000', context)).resolves.toBe(true);
    await expect(evaluate('nodes.fetch.body.score * 2', context)).resolves.toBe(14);
    await expect(evaluate('workflow.name & " v" & workflow.version', context)).resolves.toBe('Big deposit alert v2');
    await expect(evaluate('trigger.nothing', context)).resolves.toBeUndefined();
    await expect(evaluate('trigger.tags[$ = "vip"]', context)).resolves.toBe('vip');
    const sequence = await evaluate('trigger.tags.$uppercase($)', context);
    expect(sequence).toEqual(['VIP', 'NEW']);
    expect(Object.keys(sequence as object)).toEqual(['0', '1']);
    await expect(evaluate('$sum', context)).resolves.toBeUndefined();
  });

  it('stops a runaway expression by its step budget (the workflow sandbox has no clock), naming it', async () => {
    await expect(withStoppedClock(() => evaluate('($loop := function($n) { $loop($n + 1) }; $loop(0))', context))).rejects.toThrow(
      /failed: Evaluation exceeded 100000 steps/,
    );
    await expect(evaluate('$count([1..1000000].($ * 2))', context)).rejects.toThrow(/^Expression "\$count/);
    await expect(evaluate('$sum([1..1000])', context)).resolves.toBe(500500);
  });

  it('names the failing expression', async () => {
    await expect(evaluate('trigger.name + 1', context)).rejects.toThrow(
      'Expression "trigger.name + 1" failed: The left side of the "+" operator must evaluate to a number',
    );
    await expect(evaluate('trigger.(', context)).rejects.toThrow(/^Invalid expression "trigger.\(": /);
    await expect(withStoppedClock(() => evaluate('($f := function($n) { $f($n + 1) }; $f(0))', context))).rejects.toThrow(
      'failed: Evaluation exceeded 100000 steps',
    );
    await expect(evaluate('($f := function($n) { 1 + $f($n + 1) }; $f(0))', context)).rejects.toThrow(/failed: Stack overflow/);
    await expect(evaluate('trigger.amount', context)).resolves.toBe(150000);
  });

  it('finds embedded templates', () => {
    expect(templateExpressions('a {{ x }} b {{y}}')).toEqual([' x ', 'y']);
    expect(templateExpressions('plain')).toEqual([]);
  });

  it('keeps the type of a string that is a single template', async () => {
    await expect(renderParams('{{ trigger.amount }}', context)).resolves.toBe(150000);
    await expect(renderParams('  {{ trigger.entity }} ', context)).resolves.toEqual({ externalId: 'p-1' });
    await expect(renderParams('{{ trigger.nothing }}', context)).resolves.toBeNull();
    await expect(renderParams('{{ trigger.amount > 5 }}', context)).resolves.toBe(true);
  });

  it('interpolates templates inside text', async () => {
    await expect(renderParams('Hi {{ trigger.name }}, {{ trigger.amount }} on {{ trigger.tags }}{{ trigger.nothing }}!', context)).resolves.toBe(
      'Hi Ada, 150000 on ["vip","new"]!',
    );
    await expect(renderParams('{{ trigger.name }} {{ trigger.name }}', context)).resolves.toBe('Ada Ada');
  });

  it('renders at any depth and leaves other values alone', async () => {
    const params = {
      url: 'https://x.test/{{ trigger.entity.externalId }}',
      body: { items: [{ n: '{{ nodes.fetch.status }}' }, 3, null, false], raw: 'no template' },
    };
    await expect(renderParams(params, context)).resolves.toEqual({
      url: 'https://x.test/p-1',
      body: { items: [{ n: 200 }, 3, null, false], raw: 'no template' },
    });
    const rendered = (await renderParams(JSON.parse('{"__proto__": {"polluted": "{{ 1 }}"}}'), context)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.keys(rendered)).toEqual(['__proto__']);
  });

  it('applies JSONata truthiness to condition results', () => {
    for (const falsy of [undefined, null, false, 0, '', [], {}, [0, false, ''], [[]]]) expect(isTruthy(falsy)).toBe(false);
    for (const truthy of [true, 1, -1, 'x', [0, 1], { a: 1 }, ['x']]) expect(isTruthy(truthy)).toBe(true);
  });

  it('reports the path of each templated field as it renders', async () => {
    const fields: string[] = [];
    await renderParams({ url: 'https://x.test', body: { items: ['{{ 1 }}', 'plain'], text: 'a {{ 2 }}' } }, context, 'params', (field) => fields.push(field));
    expect(fields).toEqual(['params.body.items[0]', 'params.body.text']);
    expect(hasTemplates({ a: [{ b: 'x {{ 1 }}' }] })).toBe(true);
    expect(hasTemplates({ a: [{ b: 'x { 1 }' }], n: 3 })).toBe(false);
  });

  it('sends the sandbox only the node outputs an expression can read: those it names, or all when it reads nodes or the root whole', () => {
    const wide: RunContext = { ...context, nodes: { fetch: { status: 200 }, kyc: { ok: true }, other: { big: 'x' } } };
    expect(Object.keys(contextFor({ expression: 'nodes.fetch.status = 200' }, wide).nodes)).toEqual(['fetch']);
    expect(
      Object.keys(contextFor({ params: { a: '{{ nodes.kyc.ok }}', b: ['{{ nodes.fetch.status }}'], c: 'nodes.other (not a template)' } }, wide).nodes),
    ).toEqual(['fetch', 'kyc']);
    for (const expression of ['$keys(nodes)', 'nodes.*.status', '$lookup(nodes, "kyc")', '$.nodes.kyc', '$$.nodes.other', 'nodes.`kyc`.ok']) {
      expect(Object.keys(contextFor({ expression }, wide).nodes)).toEqual(['fetch', 'kyc', 'other']);
    }
    expect(contextFor({ expression: 'trigger.amount > 5' }, wide)).toEqual({ ...wide, nodes: {} });
  });
});
