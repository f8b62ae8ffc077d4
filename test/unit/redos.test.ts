import type { AutomationNode } from '../../core/automations/types';
import { regexProblems } from '../../sandbox/redos';

const node = (id: string, type: string, params: Record<string, unknown>) => ({ id, type, params }) as AutomationNode;

describe('catastrophic regexes at definition time (recheck)', () => {
  it('names the field of every exponential or high-degree polynomial regex in conditions, filters and templates', async () => {
    const problems = await regexProblems([
      node('start', 'trigger.event', { event: 'entity_event.transaction', filter: '$match(trigger.data.note, /^(\\w+\\s?)*$/)' }),
      node('c', 'condition', { expression: '$contains(trigger.data.ref, /^(a|aa)+$/) or $contains(trigger.data.ref, /^[0-9]+$/)' }),
      node('tell', 'action.http_request', { method: 'POST', url: 'https://x.test', body: { items: ['{{ $split(trigger.data.note, /(a*)*b/) }}'] } }),
      node('poly', 'condition', { expression: '$contains(trigger.data.note, /a*a*a*a*b/)' }),
    ]);
    expect(problems.map((problem) => problem.field)).toEqual([
      'nodes[0].params.filter',
      'nodes[1].params.expression',
      'nodes[2].params.body.items[0]',
      'nodes[3].params.expression',
    ]);
    expect(problems[1]!.message).toMatch(/^regular expression \/\^\(a\|aa\)\+\$\/ can take exponential time to fail on inputs such as "/);
    expect(problems[3]!.message).toMatch(/polynomial \(degree [3-9]\)/);
  });

  it('lets linear and quadratic regexes, regex-free expressions and invalid sources through (the budget bounds them at run time)', async () => {
    const problems = await regexProblems([
      node('c1', 'condition', { expression: '$match(trigger.email, /^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$/i)' }),
      node('c2', 'condition', { expression: '$contains(trigger.note, /\\s*,\\s*x/)' }),
      node('c3', 'condition', { expression: 'trigger.amount > 5' }),
      node('c4', 'condition', { expression: 'amount >' }),
    ]);
    expect(problems).toEqual([]);
  });
});
