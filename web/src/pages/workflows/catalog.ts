import type { components } from '../../api/schema';

export type NodeType = components['schemas']['WorkflowNode']['type'];
export type Params = Record<string, unknown>;
export type Group = 'trigger' | 'condition' | 'action';

/** How one param is edited in the inspector; `name` is the key in `params`. */
export type FieldSpec =
  | {
      kind: 'text';
      name: string;
      label: string;
      required?: boolean;
      hint?: string;
      placeholder?: string;
      suggestions?: readonly string[];
      multiline?: boolean;
      type?: 'email' | 'url';
    }
  | { kind: 'expression'; name: string; label: string; required?: boolean; hint?: string; placeholder?: string }
  | { kind: 'select'; name: string; label: string; options: ReadonlyArray<readonly [string, string]>; optional?: boolean }
  | { kind: 'number'; name: string; label: string; min: number; max: number; hint?: string }
  | { kind: 'value'; name: string; label: string; required?: boolean; hint?: string }
  | { kind: 'object'; name: string; label: string; hint?: string; stringsOnly?: boolean; keyLabel?: string }
  | { kind: 'schema'; name: string; label: string }
  | { kind: 'secret'; name: string; label: string }
  | { kind: 'connection'; name: string; label: string }
  | { kind: 'timezone'; name: string; label: string };

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

/** The responsible-gambling gate's marks (docs/compliance.md): a step marked marketing or bonus is checked before it runs. */
const MARKETING_FIELDS: FieldSpec[] = [
  {
    kind: 'select',
    name: 'purpose',
    label: 'Purpose',
    optional: true,
    options: [
      ['', 'Operational (not gated)'],
      ['marketing', 'Marketing to the player (gated)'],
      ['bonus', 'Bonus offer to the player (gated)'],
    ],
  },
  {
    kind: 'select',
    name: 'channel',
    label: 'Consent channel',
    optional: true,
    options: [
      ['', 'Every channel must consent'],
      ['email', 'Email'],
      ['sms', 'SMS'],
      ['push', 'Push'],
      ['phone', 'Phone'],
    ],
  },
];

const text = (value: unknown, max = 40): string => {
  const shown = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
};
const TEMPLATE_HINT = 'Text, or {{ JSONata }} over the run, e.g. {{ trigger.entity.externalId }}';

export const CATALOG: Record<NodeType, NodeSpec> = {
  'trigger.manual': {
    label: 'Manual or MCP',
    group: 'trigger',
    description: 'Runs when you test it here, or when an AI assistant calls it over MCP.',
    fields: [{ kind: 'schema', name: 'inputSchema', label: 'Inputs' }],
    defaults: {},
    summary: (params) => {
      const properties = (params.inputSchema as { properties?: Params } | undefined)?.properties;
      return properties && Object.keys(properties).length > 0 ? `inputs: ${Object.keys(properties).join(', ')}` : 'no inputs';
    },
  },
  'trigger.event': {
    label: 'Event',
    group: 'trigger',
    description: 'Runs when your data changes: an event is recorded, a player is created, a state is set.',
    fields: [
      {
        kind: 'text',
        name: 'event',
        label: 'Event',
        required: true,
        suggestions: EVENTS,
        hint: 'e.g. entity_event.transaction; provider.webhook.<name> for a named webhook',
      },
      {
        kind: 'expression',
        name: 'filter',
        label: 'Only when (optional)',
        placeholder: 'trigger.data.type = "deposit"',
        hint: 'A JSONata condition over the event',
      },
    ],
    defaults: { event: 'entity_event.transaction' },
    summary: (params) => text(params.event) + (params.filter ? ` if ${text(params.filter, 24)}` : ''),
  },
  'trigger.webhook': {
    label: 'Webhook',
    group: 'trigger',
    description: 'Runs when a system POSTs JSON to this workflow’s webhook URL.',
    fields: [
      { kind: 'text', name: 'name', label: 'Name (optional)', hint: 'Also emits provider.webhook.<name> for other workflows' },
      { kind: 'secret', name: 'secret', label: 'Signing secret' },
      { kind: 'schema', name: 'inputSchema', label: 'Expected fields' },
    ],
    defaults: {},
    summary: (params) => (params.webhookId ? `/webhook-receiver/${text(params.webhookId, 18)}` : 'URL assigned on save'),
  },
  'trigger.schedule': {
    label: 'Schedule',
    group: 'trigger',
    description: 'Runs on a schedule (cron), in your time zone.',
    fields: [
      {
        kind: 'text',
        name: 'cron',
        label: 'Cron (5 fields)',
        required: true,
        placeholder: '0 9 * * 1',
        hint: 'minute hour day-of-month month day-of-week; 0 9 * * 1 is Mondays at 09:00',
      },
      { kind: 'timezone', name: 'timezone', label: 'Time zone' },
    ],
    defaults: { cron: '0 9 * * *', timezone: 'Europe/London' },
    summary: (params) => `${text(params.cron)} ${text(params.timezone)}`,
  },
  condition: {
    label: 'Condition',
    group: 'condition',
    description: 'Takes the “yes” or the “no” branch.',
    fields: [
      {
        kind: 'expression',
        name: 'expression',
        label: 'Condition',
        required: true,
        placeholder: 'trigger.data.amount > 100000',
        hint: 'JSONata: trigger is the event or input; nodes.<id> is a node’s output',
      },
    ],
    defaults: { expression: 'trigger.data.amount > 100000' },
    summary: (params) => text(params.expression),
    branches: ['yes', 'no'],
  },
  'action.set_state': {
    label: 'Set a state',
    group: 'action',
    description: 'Sets a player state: balance, KYC status, risk score, loyalty tier.',
    fields: [
      { kind: 'text', name: 'externalId', label: 'Player', required: true, hint: TEMPLATE_HINT },
      { kind: 'text', name: 'key', label: 'State', required: true, suggestions: STATE_KEYS },
      { kind: 'value', name: 'value', label: 'Value', required: true, hint: 'A number, true/false, text, or {{ expression }}' },
    ],
    defaults: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 80 },
    summary: (params) => `${text(params.key, 16)} = ${text(params.value, 20)}`,
  },
  'action.record_event': {
    label: 'Record an event',
    group: 'action',
    description: 'Records an event for a player.',
    fields: [
      { kind: 'text', name: 'externalId', label: 'Player', required: true, hint: TEMPLATE_HINT },
      { kind: 'text', name: 'eventType', label: 'Event type', required: true, suggestions: Object.keys(EVENT_FIELDS) },
      { kind: 'object', name: 'data', label: 'Event fields' },
    ],
    defaults: { externalId: '{{ trigger.entity.externalId }}', eventType: 'support', data: { subject: 'Follow up' } },
    summary: (params) => `${text(params.eventType)} for ${text(params.externalId, 20)}`,
  },
  'action.upsert_entity': {
    label: 'Create or update a player',
    group: 'action',
    description: 'Creates the player, or merges these fields into it.',
    fields: [
      { kind: 'text', name: 'entityType', label: 'Entity type', required: true, suggestions: ['player'] },
      { kind: 'text', name: 'externalId', label: 'Player', required: true, hint: TEMPLATE_HINT },
      { kind: 'object', name: 'data', label: 'Fields' },
    ],
    defaults: { entityType: 'player', externalId: '{{ trigger.entity.externalId }}', data: { status: 'active' } },
    summary: (params) => `${text(params.entityType)} ${text(params.externalId, 24)}`,
  },
  'action.http_request': {
    label: 'HTTP request',
    group: 'action',
    description: 'Calls any HTTP endpoint.',
    fields: [
      { kind: 'select', name: 'method', label: 'Method', options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => [method, method] as const) },
      { kind: 'text', name: 'url', label: 'URL', required: true, type: 'url', placeholder: 'https://example.com/hook' },
      { kind: 'object', name: 'headers', label: 'Headers', stringsOnly: true, keyLabel: 'Header' },
      { kind: 'value', name: 'body', label: 'Body (optional)', hint: 'JSON, text, or {{ expression }}' },
      ...MARKETING_FIELDS,
    ],
    defaults: { method: 'POST', url: 'https://example.com/hook' },
    summary: (params) => `${text(params.method)} ${text(params.url, 30)}`,
  },
  'action.gateway': {
    label: 'Call a supplier',
    group: 'action',
    description: 'Calls a supplier through the gateway (Connections).',
    fields: [
      { kind: 'connection', name: 'connectionId', label: 'Connection' },
      { kind: 'text', name: 'operation', label: 'Operation', required: true, placeholder: 'kyc.status' },
      { kind: 'object', name: 'params', label: 'Parameters' },
      ...MARKETING_FIELDS,
    ],
    defaults: { connectionId: '', operation: '' },
    summary: (params) => text(params.operation) || 'choose a connection',
  },
  'action.delay': {
    label: 'Wait',
    group: 'action',
    description: 'Waits, durably, before the next step.',
    fields: [{ kind: 'number', name: 'seconds', label: 'Seconds', min: 1, max: 2_592_000, hint: 'Up to 30 days' }],
    defaults: { seconds: 60 },
    summary: (params) => `${text(params.seconds)} s`,
  },
  'action.send_email': {
    label: 'Send an email',
    group: 'action',
    description: 'Sends an email.',
    fields: [
      { kind: 'text', name: 'to', label: 'To', required: true, type: 'email', hint: TEMPLATE_HINT },
      { kind: 'text', name: 'subject', label: 'Subject', required: true },
      { kind: 'text', name: 'text', label: 'Message', required: true, multiline: true },
      {
        kind: 'select',
        name: 'purpose',
        label: 'Purpose (always gated)',
        optional: true,
        options: [
          ['', 'Marketing'],
          ['bonus', 'Bonus offer'],
        ],
      },
    ],
    defaults: { to: 'ops@example.com', subject: 'Workflow alert', text: 'Player {{ trigger.entity.externalId }} needs a look.' },
    summary: (params) => `to ${text(params.to, 28)}`,
  },
  'action.ai': {
    label: 'Ask an AI model',
    group: 'action',
    description: 'Asks an AI model; counts as an AI Action.',
    fields: [
      { kind: 'text', name: 'prompt', label: 'Prompt', required: true, multiline: true, hint: TEMPLATE_HINT },
      { kind: 'text', name: 'model', label: 'Model (optional)' },
      ...MARKETING_FIELDS,
    ],
    defaults: { prompt: 'Summarise this event: {{ $string(trigger) }}' },
    summary: (params) => text(params.prompt, 30),
  },
  'action.approval': {
    label: 'Ask for approval',
    group: 'action',
    description: 'Waits until an Owner or Admin (in the run) or the agent (through its MCP task) approves or refuses.',
    fields: [
      { kind: 'text', name: 'message', label: 'What to approve', required: true, multiline: true, hint: TEMPLATE_HINT },
      { kind: 'number', name: 'timeoutSeconds', label: 'Give up after (seconds)', min: 1, max: 2_592_000, hint: 'Refused when nobody answers; 1 day if empty' },
    ],
    defaults: { message: 'Approve a bonus for {{ trigger.playerId }}?' },
    summary: (params) => text(params.message, 30),
  },
  'action.wait_for_event': {
    label: 'Wait for an event',
    group: 'action',
    description: 'Waits until the player does something (an event arrives), or gives up after a while.',
    fields: [
      { kind: 'text', name: 'event', label: 'Event', required: true, suggestions: EVENTS, hint: 'e.g. entity_event.transaction' },
      {
        kind: 'expression',
        name: 'filter',
        label: 'Only when (optional)',
        placeholder: 'event.data.type = "deposit"',
        hint: 'JSONata over the arriving event (event) and the run (trigger, nodes)',
      },
      { kind: 'text', name: 'externalId', label: 'Player (optional)', hint: 'The player the run started for, unless set: {{ trigger.entity.externalId }}' },
      { kind: 'number', name: 'timeoutSeconds', label: 'Give up after (seconds)', min: 1, max: 2_592_000, hint: '86400 is a day; up to 30 days' },
    ],
    defaults: { event: 'entity_event.transaction', filter: 'event.data.type = "deposit"', timeoutSeconds: 86_400 },
    summary: (params) => `${text(params.event, 26)} or ${text(params.timeoutSeconds)} s`,
    branches: ['event', 'timeout'],
  },
};

export const NODE_TYPES = Object.keys(CATALOG) as NodeType[];
export const isTriggerType = (type: NodeType): boolean => CATALOG[type].group === 'trigger';
