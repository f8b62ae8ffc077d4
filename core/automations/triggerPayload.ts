import { isRecord } from './types';

/**
 * How a trigger payload reads for an event-triggered workflow run by hand or over MCP: either a whole
 * internal event (`{ data: {…}, entity, … }`) or just the event's fields (the MCP tool arguments). One rule
 * for the check of required fields (in the begin activity) and the run context (in the workflow sandbox:
 * this module imports ./types only).
 */
const isWholeEvent = (payload: unknown): payload is Record<string, unknown> & { data: Record<string, unknown> } => isRecord(payload) && isRecord(payload.data);

/**
 * The fields an event trigger's required list is checked against: the event's `data`, or the payload itself.
 *
 * @example triggerFieldsOf('trigger.event', { amount: 5 }) // { amount: 5 }
 */
export function triggerFieldsOf(triggerType: string, payload: unknown): unknown {
  return triggerType === 'trigger.event' && isWholeEvent(payload) ? payload.data : payload;
}

/**
 * What expressions see as `trigger`: the payload, except that a manual or MCP run of an event-triggered
 * workflow given bare event fields sees them as an event's `data`, so `trigger.data.amount` means the same
 * in a test as in production.
 *
 * @example triggerContextOf('mcp', 'trigger.event', 'entity_event.transaction', { amount: 5 }).data // { amount: 5 }
 */
export function triggerContextOf(source: string, triggerType: string, event: unknown, payload: unknown): unknown {
  if (triggerType !== 'trigger.event' || (source !== 'manual' && source !== 'mcp') || isWholeEvent(payload)) return payload;
  return { id: null, event, operatorId: null, occurredAt: null, entity: null, data: payload };
}
