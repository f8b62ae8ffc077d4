import { GraphIndex, reachableFrom, topologicalOrder } from './graph';
import { outputSchemaOf } from './nodes';
import { marketingStepOf, SUPPRESSED_OUTPUT_SCHEMA } from './nodes/marketing';
import type { ObjectSchema } from './nodes/module';
import { ACTION_TYPES, isAction, isTrigger, type ActionType, type AutomationDefinition, type AutomationEdge } from './types';

export type { ObjectSchema } from './nodes/module';

/**
 * The output each action hands to the run (its activity's return value, as stored), from its node module. A field is
 * `required` only when the action always sets it: a rendered template may leave `value` or a gateway's `data`
 * undefined, which JSON drops. Kept to keywords draft-07 and 2020-12 read alike, since MCP clients validate with either.
 */
export const ACTION_OUTPUT_SCHEMAS = Object.fromEntries(ACTION_TYPES.map((type) => [type, outputSchemaOf(type)])) as Record<ActionType, ObjectSchema>;

/** Whether an edge is taken on every run that completes `from`: no branch (`when`), or both branches of a condition. */
function alwaysTaken(graph: GraphIndex, edge: AutomationEdge): boolean {
  if (edge.when === undefined) return true;
  const branches = new Set(
    graph
      .outgoing(edge.from)
      .filter((other) => other.to === edge.to)
      .map((other) => other.when),
  );
  return branches.has(true) && branches.has(false);
}

/**
 * The schema of a completed run's `output` when a run from `triggerId` declares it, else null. The interpreter's
 * output is the last completed action's output in topological order, so the output is known when some action runs
 * on every completed run (it is fed by a node that always completes, over an edge always taken): then the output is
 * that action's or a later one's, and the schema is theirs (`anyOf` when they differ). Without such an action the
 * output may be the trigger payload, which declares nothing.
 *
 * @example runOutputSchema({ nodes: [manualTrigger, { id: 'wait', type: 'action.delay', params: { seconds: 1 } }], edges: [{ from: 'start', to: 'wait' }] }, 'start')
 * // { type: 'object', properties: { waitedSeconds: { type: 'integer' } }, required: ['waitedSeconds'] }
 */
export function runOutputSchema(def: AutomationDefinition, triggerId: string): ObjectSchema | null {
  const graph = new GraphIndex(def);
  const reachable = reachableFrom(def, triggerId);
  const order = topologicalOrder(def).filter((id) => reachable.has(id));
  const certain = new Set([triggerId]);
  const actions: string[] = [];
  for (const id of order) {
    const node = graph.node(id);
    if (!node || id === triggerId || isTrigger(node.type)) continue;
    if (graph.incoming(id).some((edge) => certain.has(edge.from) && alwaysTaken(graph, edge))) certain.add(id);
    if (isAction(node.type)) actions.push(id);
  }
  let lastCertain = actions.length - 1;
  while (lastCertain >= 0 && !certain.has(actions[lastCertain]!)) lastCertain -= 1;
  if (lastCertain < 0) return null;
  const schemas = new Map<string, ObjectSchema>();
  for (const id of actions.slice(lastCertain)) {
    const node = graph.node(id)!;
    const schema = outputSchemaOf(node.type as ActionType);
    schemas.set(JSON.stringify(schema), schema);
    // A marketing step the responsible-gambling gate stops completes with its suppression instead (docs/compliance.md).
    if (marketingStepOf(node.type as ActionType, node.params)) schemas.set('suppressed', SUPPRESSED_OUTPUT_SCHEMA);
  }
  const distinct = [...schemas.values()];
  return distinct.length === 1 ? distinct[0]! : { type: 'object', anyOf: distinct };
}
