import { actionBudget, findCycle, GraphIndex, incoming, outgoing, reachableFrom, topologicalOrder, triggerFor } from '../../core/automations/graph';
import type { NodeType, AutomationDefinition } from '../../core/automations/types';

const node = (id: string, type: NodeType, params: Record<string, unknown> = {}) => ({ id, type, params });

const def: AutomationDefinition = {
  nodes: [
    node('notify', 'action.send_email'),
    node('hook', 'trigger.webhook', { webhookId: 'wh_abc' }),
    node('check', 'condition'),
    node('start', 'trigger.manual'),
    node('ai', 'action.ai'),
    node('store', 'action.set_state'),
    node('nightly', 'trigger.schedule'),
    node('later', 'trigger.schedule'),
    node('wait', 'action.delay'),
  ],
  edges: [
    { from: 'start', to: 'check' },
    { from: 'hook', to: 'check' },
    { from: 'check', to: 'ai', when: true },
    { from: 'check', to: 'store', when: false },
    { from: 'ai', to: 'notify' },
    { from: 'store', to: 'notify' },
    { from: 'nightly', to: 'wait' },
  ],
};

describe('workflow graph', () => {
  it('orders nodes topologically, ties in listed order', () => {
    expect(topologicalOrder(def)).toEqual(['hook', 'start', 'check', 'ai', 'store', 'notify', 'nightly', 'later', 'wait']);
    expect(() =>
      topologicalOrder({
        nodes: [node('a', 'action.delay'), node('b', 'action.delay')],
        edges: [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'a' },
        ],
      }),
    ).toThrow('cycle');
  });

  it('finds cycles', () => {
    expect(findCycle(def)).toBeNull();
    const cyclic = {
      nodes: [node('t', 'trigger.manual'), node('a', 'action.delay'), node('b', 'action.delay'), node('c', 'action.delay')],
      edges: [
        { from: 't', to: 'a' },
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'a' },
      ],
    };
    expect(findCycle(cyclic)).toEqual(['a', 'b', 'c']);
  });

  it('looks up edges', () => {
    expect(outgoing(def, 'check')).toEqual([
      { from: 'check', to: 'ai', when: true },
      { from: 'check', to: 'store', when: false },
    ]);
    expect(incoming(def, 'notify').map((edge) => edge.from)).toEqual(['ai', 'store']);
    expect(outgoing(def, 'notify')).toEqual([]);
    const graph = new GraphIndex(def);
    expect(graph.node('check')?.type).toBe('condition');
    expect(graph.incoming('check')).toHaveLength(2);
  });

  it('computes reachability and the worst case action budget', () => {
    expect([...reachableFrom(def, 'start')].sort()).toEqual(['ai', 'check', 'notify', 'start', 'store']);
    expect(actionBudget(def, 'start')).toEqual({ actions: 3, aiActions: 1 });
    expect(actionBudget(def, 'nightly')).toEqual({ actions: 1, aiActions: 0 });
    expect(actionBudget(def, 'later')).toEqual({ actions: 0, aiActions: 0 });
  });

  it('picks the trigger of a run', () => {
    expect(triggerFor(def, 'manual')?.id).toBe('start');
    expect(triggerFor(def, 'mcp')?.id).toBe('start');
    expect(triggerFor({ nodes: def.nodes.filter((n) => n.id !== 'start'), edges: [] }, 'mcp')?.id).toBe('hook');
    expect(triggerFor(def, 'schedule')?.id).toBe('nightly');
    expect(triggerFor(def, 'schedule', 'later')?.id).toBe('later');
    expect(triggerFor(def, 'schedule', 'hook')).toBeUndefined();
    expect(triggerFor(def, 'webhook', 'wh_abc')?.id).toBe('hook');
    expect(triggerFor(def, 'webhook', 'hook')?.id).toBe('hook');
    expect(triggerFor(def, 'event')).toBeUndefined();
  });
});
