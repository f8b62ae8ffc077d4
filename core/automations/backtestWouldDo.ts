import type { WouldDo } from './backtestTally';
import { actionModule } from './nodes';
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

/**
 * The record of one action a backtest stubbed, for the player `playerId` (an external id).
 *
 * @example wouldDo({ id: 'mail', type: 'action.send_email', params: { to: '{{ trigger.data.email }}', subject: 'Hi {{ trigger.entity.externalId }}', text: '…' } }, 'p-1')
 * // { nodeId: 'mail', type: 'action.send_email', playerId: 'p-1', method: 'EMAIL', target: '{{ trigger.data.email }}', template: 'Hi p-1' }
 */
export function wouldDo(node: { id: string; type: ActionType; params: Record<string, unknown> }, playerId: string | null): WouldDo {
  const shape = actionModule(node.type).wouldDo(node.params);
  return {
    nodeId: node.id,
    type: node.type,
    playerId,
    method: typeof shape.method === 'string' ? shape.method : String(shape.method ?? node.type),
    target: asWritten(shape.target, playerId),
    template: asWritten(shape.template, playerId),
  };
}
