import { reachableFrom } from './automations/graph';
import { actionModule } from './automations/nodes';
import type { ToolAnnotations } from './automations/nodes/module';
import { isAction, type ActionType, type AutomationDefinition, type AutomationNode } from './automations/types';

export type { ToolAnnotations } from './automations/nodes/module';

/**
 * What one action does to the world, from its node module. Hints are safe: where the platform cannot know (an
 * `http_request` POST or PATCH, a gateway operation), the action counts as destructive, not idempotent and open-world.
 */
const effectOf = (node: AutomationNode & { type: ActionType }): ToolAnnotations => actionModule(node.type).effect(node);

/**
 * A tool's annotations from every action a run from `triggerId` can reach (all branches): read-only only if every
 * action reads, destructive if any action may be, idempotent only if every action is, open-world if any action
 * leaves the platform. A workflow without actions reads.
 *
 * @example toolAnnotations(def, 'start') // { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }
 */
export function toolAnnotations(def: AutomationDefinition, triggerId: string): ToolAnnotations {
  const reachable = reachableFrom(def, triggerId);
  const effects = def.nodes.filter((node): node is AutomationNode & { type: ActionType } => reachable.has(node.id) && isAction(node.type)).map(effectOf);
  return {
    readOnlyHint: effects.every((effect) => effect.readOnlyHint),
    destructiveHint: effects.some((effect) => effect.destructiveHint),
    idempotentHint: effects.every((effect) => effect.idempotentHint),
    openWorldHint: effects.some((effect) => effect.openWorldHint),
  };
}
