import type { components } from '../../../../api/schema';
import { GENERATED_NODES } from '../generated/nodes.generated';
import type { FieldSpec, GeneratedField, Group, Params, SuggestionList } from './nodeSpec';

export type { FieldSpec, Group, Params } from './nodeSpec';
export type NodeType = components['schemas']['WorkflowNode']['type'];

/**
 * What the editor knows of a node type: everything but `summary` is the server's declaration (each type's folder under
 * core/automations/nodes/), copied into ./nodes.generated.ts by `npm run generate:nodes`.
 */
export interface NodeSpec {
  label: string;
  group: Group;
  description: string;
  fields: FieldSpec[];
  defaults: Params;
  summary: (params: Params) => string;
  /** Labels of the two branches (`when: true`, `when: false`) edges leaving a step of this type can follow. */
  branches?: readonly [string, string];
}

/** The iGaming template (spec 2.2, plus `kyc`): suggestions only, the API has the final word. */
export const EVENT_FIELDS: Record<string, { required: string[]; optional: string[] }> = {
  transaction: { required: ['type', 'amount', 'currency'], optional: ['id', 'reference', 'player_id', 'status', 'timestamp', 'provider'] },
  game_activity: { required: ['game_id', 'bet_amount'], optional: ['game_name', 'win_amount', 'currency', 'round_id', 'provider', 'timestamp'] },
  session: { required: [], optional: ['session_id', 'started_at', 'ended_at', 'duration_seconds', 'device', 'country'] },
  bonus: { required: [], optional: ['bonus_id', 'type', 'amount', 'currency', 'status', 'timestamp'] },
  block: { required: [], optional: ['reason', 'source', 'until', 'timestamp'] },
  support: { required: [], optional: ['ticket_id', 'channel', 'subject', 'status', 'timestamp'] },
  affiliate: { required: [], optional: ['affiliate_id', 'campaign', 'tracking_code', 'timestamp'] },
  kyc: { required: [], optional: ['player_id', 'provider', 'document_type', 'status', 'completed_at', 'expires_at'] },
};
export const STATE_KEYS = ['balance', 'kyc_status', 'risk_score', 'loyalty_tier', 'compliance', 'consent'] as const;
export const EVENTS = [
  ...Object.keys(EVENT_FIELDS).map((type) => `entity_event.${type}`),
  'entity.created',
  'entity.updated',
  'entity.deleted',
  ...STATE_KEYS.map((key) => `entity_state.updated.${key}`),
  'state.updated',
  'gateway.request.completed',
  'gateway.request.failed',
  'harm.deposit_velocity',
  'harm.deposit_after_reversed_withdrawal',
] as const;

const text = (value: unknown, max = 40): string => {
  const shown = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
};
const SUGGESTIONS: Record<SuggestionList, readonly string[]> = { events: EVENTS, stateKeys: STATE_KEYS, eventTypes: Object.keys(EVENT_FIELDS) };

const resolved = (field: GeneratedField): FieldSpec =>
  field.kind === 'text' && typeof field.suggestions === 'string' ? { ...field, suggestions: SUGGESTIONS[field.suggestions] } : (field as FieldSpec);

/** The one line a step shows on the canvas, where its first field's value would not say enough. */
const SUMMARIES: Partial<Record<NodeType, (params: Params) => string>> = {
  'trigger.manual': (params) => {
    const properties = (params.inputSchema as { properties?: Params } | undefined)?.properties;
    return properties && Object.keys(properties).length > 0 ? `inputs: ${Object.keys(properties).join(', ')}` : 'no inputs';
  },
  'trigger.event': (params) => text(params.event) + (params.filter ? ` if ${text(params.filter, 24)}` : ''),
  'trigger.webhook': (params) => (params.webhookId ? `/webhook-receiver/${text(params.webhookId, 18)}` : 'URL assigned on save'),
  'trigger.schedule': (params) => `${text(params.cron)} ${text(params.timezone)}`,
  condition: (params) => text(params.expression),
  'action.set_state': (params) => `${text(params.key, 16)} = ${text(params.value, 20)}`,
  'action.record_event': (params) => `${text(params.eventType)} for ${text(params.externalId, 20)}`,
  'action.upsert_entity': (params) => `${text(params.entityType)} ${text(params.externalId, 24)}`,
  'action.http_request': (params) => `${text(params.method)} ${text(params.url, 30)}`,
  'action.gateway': (params) => text(params.operation) || 'choose a connection',
  'action.delay': (params) => `${text(params.seconds)} s`,
  'action.send_email': (params) => `to ${text(params.to, 28)}`,
  'action.ai': (params) => text(params.prompt, 30),
  'action.approval': (params) => text(params.message, 30),
  'action.wait_for_event': (params) => `${text(params.event, 26)} or ${text(params.timeoutSeconds)} s`,
};

/** A type without a summary of its own shows its first field's value. */
const firstField =
  (fields: FieldSpec[]) =>
  (params: Params): string => {
    const first = fields[0];
    return first ? text(params[first.name], 30) : '';
  };

export const CATALOG = Object.fromEntries(
  Object.entries(GENERATED_NODES).map(([type, { branches, fields: declared, ...spec }]) => {
    const fields = declared.map(resolved);
    return [type, { ...spec, fields, summary: SUMMARIES[type as NodeType] ?? firstField(fields), ...(branches ? { branches } : {}) }];
  }),
) as Record<NodeType, NodeSpec>;

/**
 * The palette's order from before the catalog was generated (the server's enum lists the actions in another): the data
 * writes first. A type not listed here (a new one) comes after these, in the server's order.
 */
const PALETTE: readonly NodeType[] = [
  'trigger.manual',
  'trigger.event',
  'trigger.webhook',
  'trigger.schedule',
  'condition',
  'action.set_state',
  'action.record_event',
  'action.upsert_entity',
  'action.http_request',
  'action.gateway',
  'action.delay',
  'action.send_email',
  'action.ai',
  'action.approval',
  'action.wait_for_event',
];
const rank = (type: NodeType): number => (PALETTE.includes(type) ? PALETTE.indexOf(type) : PALETTE.length);

export const NODE_TYPES = (Object.keys(CATALOG) as NodeType[]).sort((a, b) => rank(a) - rank(b));
export const isTriggerType = (type: NodeType): boolean => CATALOG[type].group === 'trigger';
