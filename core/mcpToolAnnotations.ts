import { reachableFrom } from './automations/graph';
import { isAction, type AutomationDefinition, type AutomationNode } from './automations/types';

/** MCP 2025-06-18 `ToolAnnotations`: hints an agent host uses to decide whether to ask before calling a tool. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const READ_OUTSIDE: ToolAnnotations = { ...READ, openWorldHint: true };
/** A write whose meaning the platform cannot see (a supplier's POST, a gateway operation): assume the worst. */
const UNKNOWN_WRITE_OUTSIDE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * What one action does to the world. Hints are safe: where the platform cannot know (an `http_request` POST or
 * PATCH, a gateway operation), the action counts as destructive, not idempotent and open-world. PUT and DELETE are
 * idempotent by HTTP's definition; GET reads. `set_state` and `upsert_entity` overwrite and `record_event` appends,
 * and each emits an internal event that may fire other workflows, so none is idempotent. `ai` and `send_email`
 * reach services outside the platform; `delay` touches nothing.
 */
function effectOf(node: AutomationNode): ToolAnnotations {
  switch (node.type) {
    case 'action.http_request': {
      const method = typeof node.params.method === 'string' ? node.params.method.toUpperCase() : '';
      if (method === 'GET') return READ_OUTSIDE;
      if (method === 'PUT' || method === 'DELETE') return { ...UNKNOWN_WRITE_OUTSIDE, idempotentHint: true };
      return UNKNOWN_WRITE_OUTSIDE;
    }
    case 'action.gateway':
      return UNKNOWN_WRITE_OUTSIDE;
    case 'action.set_state':
    case 'action.upsert_entity':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
    case 'action.record_event':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
    case 'action.send_email':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
    case 'action.ai':
      return READ_OUTSIDE;
    case 'action.delay':
    case 'action.approval':
      return READ;
    default:
      return UNKNOWN_WRITE_OUTSIDE;
  }
}

/**
 * A tool's annotations from every action a run from `triggerId` can reach (all branches): read-only only if every
 * action reads, destructive if any action may be, idempotent only if every action is, open-world if any action
 * leaves the platform. A workflow without actions reads.
 *
 * @example toolAnnotations(def, 'start') // { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }
 */
export function toolAnnotations(def: AutomationDefinition, triggerId: string): ToolAnnotations {
  const reachable = reachableFrom(def, triggerId);
  const effects = def.nodes.filter((node) => reachable.has(node.id) && isAction(node.type)).map(effectOf);
  return {
    readOnlyHint: effects.every((effect) => effect.readOnlyHint),
    destructiveHint: effects.some((effect) => effect.destructiveHint),
    idempotentHint: effects.every((effect) => effect.idempotentHint),
    openWorldHint: effects.some((effect) => effect.openWorldHint),
  };
}
