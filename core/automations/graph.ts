import { isAction, isTrigger, type RunSource, type TriggerType, type AutomationDefinition, type AutomationEdge, type AutomationNode } from './types';

/**
 * Graph walks over a workflow definition. Runs inside the Temporal workflow sandbox as well as in the API, so it
 * imports ./types only. Edges naming unknown nodes are ignored here; `validateAutomationBody` refuses them.
 */

/**
 * Edges and nodes looked up by id, for the interpreter's many `outgoing`/`incoming` questions per run.
 *
 * @example const graph = new GraphIndex(def); graph.outgoing('big').filter((edge) => edge.when === true)
 */
export class GraphIndex {
  readonly nodes: ReadonlyMap<string, AutomationNode>;
  private readonly out = new Map<string, AutomationEdge[]>();
  private readonly in = new Map<string, AutomationEdge[]>();

  constructor(readonly definition: AutomationDefinition) {
    this.nodes = new Map(definition.nodes.map((node) => [node.id, node]));
    for (const edge of definition.edges) {
      if (!this.nodes.has(edge.from) || !this.nodes.has(edge.to)) continue;
      this.out.set(edge.from, [...(this.out.get(edge.from) ?? []), edge]);
      this.in.set(edge.to, [...(this.in.get(edge.to) ?? []), edge]);
    }
  }

  node(id: string): AutomationNode | undefined {
    return this.nodes.get(id);
  }

  outgoing(id: string): AutomationEdge[] {
    return this.out.get(id) ?? [];
  }

  incoming(id: string): AutomationEdge[] {
    return this.in.get(id) ?? [];
  }
}

/** Edges leaving a node, in definition order. @example outgoing(def, 'start') // [{ from: 'start', to: 'big' }] */
export function outgoing(def: AutomationDefinition, nodeId: string): AutomationEdge[] {
  return new GraphIndex(def).outgoing(nodeId);
}

/** Edges entering a node, in definition order. @example incoming(def, 'flag') // [{ from: 'big', to: 'flag', when: true }] */
export function incoming(def: AutomationDefinition, nodeId: string): AutomationEdge[] {
  return new GraphIndex(def).incoming(nodeId);
}

/**
 * A cycle of the graph as node ids in edge order (the first id follows the last), or null for a DAG; validation names
 * the cycle so the author can find it.
 *
 * @example findCycle({ nodes, edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }] }) // ['a', 'b']
 */
export function findCycle(def: AutomationDefinition): string[] | null {
  const graph = new GraphIndex(def);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    state.set(id, 'open');
    path.push(id);
    for (const edge of graph.outgoing(id)) {
      const seen = state.get(edge.to);
      if (seen === 'open') return path.slice(path.indexOf(edge.to));
      if (seen === undefined) {
        const cycle = visit(edge.to);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const node of def.nodes) {
    if (state.has(node.id)) continue;
    const cycle = visit(node.id);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * Node ids so that every edge goes forward; ties keep the order nodes are listed in, so runs are reproducible (the
 * workflow sandbox replays them). Throws on a cycle, which a validated definition never has.
 *
 * @example topologicalOrder(def) // ['start', 'big', 'flag']
 */
export function topologicalOrder(def: AutomationDefinition): string[] {
  const graph = new GraphIndex(def);
  const pending = new Map(def.nodes.map((node) => [node.id, graph.incoming(node.id).length]));
  const order: string[] = [];
  while (order.length < def.nodes.length) {
    const next = def.nodes.find((node) => pending.get(node.id) === 0);
    if (!next) throw new Error('The workflow graph has a cycle');
    pending.delete(next.id);
    order.push(next.id);
    for (const edge of graph.outgoing(next.id)) {
      const count = pending.get(edge.to);
      if (count !== undefined) pending.set(edge.to, count - 1);
    }
  }
  return order;
}

/**
 * The ids of the nodes a run starting at `startId` may visit, all branches taken, `startId` included.
 *
 * @example reachableFrom(def, 'start') // Set { 'start', 'big', 'flag' }
 */
export function reachableFrom(def: AutomationDefinition, startId: string): Set<string> {
  const graph = new GraphIndex(def);
  const seen = new Set<string>([startId]);
  const queue = [startId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const edge of graph.outgoing(id)) {
      if (seen.has(edge.to)) continue;
      seen.add(edge.to);
      queue.push(edge.to);
    }
  }
  return seen;
}

/**
 * The worst case quota use of one run from a trigger: every reachable `action.*` is an Action, every `action.ai` also
 * an AI Action. Reserved before the run so a run never stops halfway for quota.
 *
 * @example actionBudget(def, 'start') // { actions: 1, aiActions: 0 }
 */
export function actionBudget(def: AutomationDefinition, triggerId: string): { actions: number; aiActions: number } {
  const reachable = reachableFrom(def, triggerId);
  const nodes = def.nodes.filter((node) => reachable.has(node.id));
  return {
    actions: nodes.filter((node) => isAction(node.type)).length,
    aiActions: nodes.filter((node) => node.type === 'action.ai').length,
  };
}

const TRIGGER_OF_SOURCE: Record<'webhook' | 'schedule' | 'event', TriggerType> = {
  webhook: 'trigger.webhook',
  schedule: 'trigger.schedule',
  event: 'trigger.event',
};

/**
 * The trigger node a run starts from. Manual and MCP runs take the first `trigger.manual`, else the first trigger of
 * any kind. Webhook, schedule and event runs take the trigger of that kind whose id is `hint` (for webhooks the
 * `params.webhookId` matches too), else the first of that kind when no hint is given; a hint that matches nothing
 * gives undefined, so a stale schedule or webhook never starts a different trigger.
 *
 * @example triggerFor(def, 'schedule', 'nightly')?.id // 'nightly'
 */
export function triggerFor(def: AutomationDefinition, source: RunSource, hint?: string): AutomationNode | undefined {
  if (source === 'manual' || source === 'mcp') {
    return def.nodes.find((node) => node.type === 'trigger.manual') ?? def.nodes.find((node) => isTrigger(node.type));
  }
  const kind = TRIGGER_OF_SOURCE[source];
  const candidates = def.nodes.filter((node) => node.type === kind);
  if (hint === undefined) return candidates[0];
  return candidates.find((node) => node.id === hint || (kind === 'trigger.webhook' && node.params.webhookId === hint));
}
