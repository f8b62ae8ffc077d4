import type { WouldDo } from './backtestTally';
import type { ActionType } from './types';

const TEMPLATE = /\{\{([\s\S]*?)\}\}/g;
/** Template expressions that are the player's id, the only value a backtest fills in. */
const PLAYER_ID = /^\s*(trigger|\$\$\.trigger)\.entity\.(externalId|id)\s*$/;
const MAX_TEXT = 500;

/**
 * Text an action would send, as written: `{{ trigger.entity.externalId }}` (or `.id`) becomes the player's external
 * id, every other `{{ … }}` stays as the designer wrote it, so no personal data nor event value enters the result.
 */
function asWritten(value: unknown, playerId: string | null): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const filled = text.replace(TEMPLATE, (whole, inner: string) => (playerId !== null && PLAYER_ID.test(inner) ? playerId : whole));
  return filled.length > MAX_TEXT ? `${filled.slice(0, MAX_TEXT - 1)}…` : filled;
}

/** What each action type would call, with what: its method, its target and the text it would send. */
const SHAPES: Record<ActionType, (params: Record<string, unknown>) => { method: unknown; target: unknown; template: unknown }> = {
  'action.http_request': (p) => ({ method: p.method, target: p.url, template: p.body }),
  'action.gateway': (p) => ({ method: p.operation, target: p.connectionId, template: p.params }),
  'action.send_email': (p) => ({ method: 'EMAIL', target: p.to, template: p.subject }),
  'action.ai': (p) => ({ method: 'AI', target: p.model ?? null, template: p.prompt }),
  'action.set_state': (p) => ({ method: 'SET_STATE', target: p.key, template: p.value }),
  'action.record_event': (p) => ({ method: 'RECORD_EVENT', target: p.eventType, template: p.data }),
  'action.upsert_entity': (p) => ({ method: 'UPSERT_ENTITY', target: p.entityType, template: p.data }),
  'action.delay': (p) => ({ method: 'DELAY', target: null, template: p.seconds ?? null }),
  'action.approval': (p) => ({ method: 'APPROVAL', target: null, template: p.message }),
  'action.wait_for_event': (p) => ({ method: 'WAIT_FOR_EVENT', target: p.event, template: p.filter ?? null }),
};

/**
 * The record of one action a backtest stubbed, for the player `playerId` (an external id).
 *
 * @example wouldDo({ id: 'mail', type: 'action.send_email', params: { to: '{{ trigger.data.email }}', subject: 'Hi {{ trigger.entity.externalId }}', text: '…' } }, 'p-1')
 * // { nodeId: 'mail', type: 'action.send_email', playerId: 'p-1', method: 'EMAIL', target: '{{ trigger.data.email }}', template: 'Hi p-1' }
 */
export function wouldDo(node: { id: string; type: ActionType; params: Record<string, unknown> }, playerId: string | null): WouldDo {
  const shape = SHAPES[node.type](node.params);
  return {
    nodeId: node.id,
    type: node.type,
    playerId,
    method: typeof shape.method === 'string' ? shape.method : String(shape.method ?? node.type),
    target: asWritten(shape.target, playerId),
    template: asWritten(shape.template, playerId),
  };
}
