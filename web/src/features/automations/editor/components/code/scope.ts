import { createContext, useContext } from 'react';
import { CATALOG, EVENT_FIELDS, type NodeType, type Params } from '../catalog';
import { EVENT_FIELD_TYPES, MONEY_FIELDS, MONEY_UNIT, schemaType, type FieldType } from './fieldTypes';
import { OUTPUT_FIELDS } from '../../generated/outputFields';
import { PLAYER_FIELDS } from '../../generated/playerFields';

/** What a code field of a step needs from the graph around it: the step, the others, and the saved workflow's id. */
export interface CodeScope {
  workflowId?: string;
  nodeId: string;
  /** The viewer may look but not change (the form's fieldset is disabled, which a code editor does not follow by itself). */
  readOnly?: boolean;
  nodes: ReadonlyArray<{ id: string; data: { type: NodeType; params: Params } }>;
  edges: ReadonlyArray<{ source: string; target: string }>;
}

export const CodeScopeContext = createContext<CodeScope | null>(null);
export const useCodeScope = (): CodeScope | null => useContext(CodeScopeContext);

/** One name an expression can read, with what it is and the names under it. */
export interface Field {
  name: string;
  detail: string;
  /** The names under it; none or empty: what is under it is not known (an HTTP body, an unknown event's data). */
  fields?: Field[];
  /** Its JSON type where the trigger's schema knows it, for the preview's comparison warnings. */
  type?: FieldType;
  /** An amount in minor currency units. */
  money?: boolean;
}

const leaf = (name: string, detail: string): Field => ({ name, detail });

/** The steps that run before `nodeId`: those with a path of connections into it. */
export function earlierSteps(scope: CodeScope): string[] {
  const seen = new Set<string>();
  const queue = [scope.nodeId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const edge of scope.edges) {
      if (edge.target === id && !seen.has(edge.source)) {
        seen.add(edge.source);
        queue.push(edge.source);
      }
    }
  }
  seen.delete(scope.nodeId);
  return scope.nodes.filter((node) => seen.has(node.id)).map((node) => node.id);
}

/** The trigger whose payload the step reads: one feeding it, else the first trigger of the workflow. */
export function triggerOf(scope: CodeScope): CodeScope['nodes'][number] | undefined {
  const earlier = new Set(earlierSteps(scope));
  const triggers = scope.nodes.filter((node) => CATALOG[node.data.type]?.group === 'trigger');
  return triggers.find((node) => earlier.has(node.id) || node.id === scope.nodeId) ?? triggers[0];
}

const eventTypeOf = (params: Params): string | undefined => /^entity_event\.(.+)$/.exec(typeof params.event === 'string' ? params.event : '')?.[1];
const inputPropertiesOf = (params: Params): { properties: string[]; required: string[]; types: Record<string, FieldType | undefined> } => {
  const schema = params.inputSchema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const properties = schema?.properties ?? {};
  const types = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, schemaType(property)]));
  return { properties: Object.keys(properties), required: schema?.required ?? [], types };
};

/** The fields of `trigger` for a trigger step: an event's envelope and its template fields, a schedule's, or the declared inputs. */
function triggerFields(trigger: CodeScope['nodes'][number] | undefined): Field[] {
  if (!trigger) return [];
  const { type, params } = trigger.data;
  if (type === 'trigger.event') {
    const eventType = eventTypeOf(params) ?? '';
    const spec = EVENT_FIELDS[eventType];
    const types = EVENT_FIELD_TYPES[eventType] ?? {};
    const money = MONEY_FIELDS[eventType] ?? [];
    const eventField = (name: string, required: boolean): Field => {
      const type = types[name];
      const isMoney = money.includes(name);
      const detail = [`event field${required ? ', required' : ''}`, isMoney ? `number in ${MONEY_UNIT}` : type].filter(Boolean).join(' · ');
      return { name, detail, ...(type ? { type } : {}), ...(isMoney ? { money: true } : {}) };
    };
    const data = spec ? [...spec.required.map((name) => eventField(name, true)), ...spec.optional.map((name) => eventField(name, false))] : [];
    return [
      { name: 'data', detail: 'the event’s fields', fields: data },
      {
        name: 'entity',
        detail: 'the player',
        fields: [leaf('externalId', 'the player’s external id'), leaf('id', 'entity id'), leaf('entityType', 'e.g. player')],
      },
      leaf('event', 'event type'),
      leaf('id', 'event id'),
      leaf('occurredAt', 'when it happened'),
      leaf('operatorId', 'your organisation'),
    ];
  }
  if (type === 'trigger.schedule') return [leaf('scheduledAt', 'when this run was due'), leaf('triggerNodeId', 'the schedule step')];
  const { properties, required, types } = inputPropertiesOf(params);
  return properties.map((name) => {
    const type = types[name];
    const detail = [required.includes(name) ? 'input, required' : 'input', type].filter(Boolean).join(' · ');
    return { name, detail, ...(type ? { type } : {}) };
  });
}

/** Everything an expression of the step can read (the run context), for completions. */
export function contextFields(scope: CodeScope | null): Field[] {
  if (!scope) return [];
  const byId = new Map(scope.nodes.map((node) => [node.id, node]));
  const steps = earlierSteps(scope)
    .map((id) => byId.get(id)!)
    .filter((node) => CATALOG[node.data.type]?.group !== 'trigger');
  return [
    { name: 'trigger', detail: 'the trigger payload', fields: triggerFields(triggerOf(scope)) },
    {
      name: 'nodes',
      detail: 'earlier steps’ outputs',
      fields: steps.map((node) => ({
        name: node.id,
        detail: `${CATALOG[node.data.type]?.label ?? node.data.type} output`,
        fields: (OUTPUT_FIELDS[node.data.type] ?? []).map((name) => leaf(name, 'output field')),
      })),
    },
    {
      name: 'player',
      detail: 'the player the run is about: profile and states, as when the run began',
      fields: PLAYER_FIELDS.map(({ name, detail, fields }): Field =>
        fields ? { name, detail, fields: fields.map((inner) => leaf(inner.name, inner.detail)) } : leaf(name, detail),
      ),
    },
    { name: 'workflow', detail: 'this workflow', fields: [leaf('id', 'workflow id'), leaf('name', 'name'), leaf('version', 'version the run started on')] },
    { name: 'run', detail: 'this run', fields: [leaf('id', 'run id'), leaf('source', 'manual, event, webhook, schedule or mcp')] },
  ];
}

/** The time samples are dated with: fixed for the page, so an unchanged sample is the same request. */
const SAMPLE_TIME = new Date().toISOString();

const SAMPLE_VALUES: Record<string, unknown> = {
  first_name: 'Alex',
  last_name: 'Sample',
  email: 'alex@example.com',
  phone: '+35699000000',
  date_of_birth: '1990-01-01',
  language: 'en',
  jurisdiction: 'MT',
  kyc_status: 'approved',
  loyalty_tier: 'gold',
  risk_score: 10,
  balance: 25000,
  type: 'deposit',
  amount: 150000,
  bet_amount: 500,
  win_amount: 1200,
  currency: 'EUR',
  status: 'completed',
  country: 'MT',
  device: 'mobile',
  channel: 'chat',
  duration_seconds: 900,
  provider: 'sample-provider',
  player_id: 'p-1',
};

function sampleValue(name: string, at: string): unknown {
  if (name in SAMPLE_VALUES) return SAMPLE_VALUES[name];
  if (/(_at|timestamp|until)$/.test(name)) return at;
  if (/(^id|_id)$/.test(name)) return `${name.replace(/_id$/, '')}-1`;
  return `sample ${name}`;
}

/** A value for each field the template gives events of this name (`params.event`). */
function sampleData(params: Params, at: string): Record<string, unknown> {
  const spec = EVENT_FIELDS[eventTypeOf(params) ?? ''];
  return Object.fromEntries([...(spec?.required ?? []), ...(spec?.optional ?? [])].map((name) => [name, sampleValue(name, at)]));
}

/**
 * The event an `action.wait_for_event`'s filter reads as `event` (workflows/automation/waitForEvent.ts), as a sample
 * of the awaited name; undefined for any other step.
 */
export function waitedEventSample(scope: CodeScope | null): Record<string, unknown> | undefined {
  const step = scope?.nodes.find((node) => node.id === scope.nodeId);
  if (step?.data.type !== 'action.wait_for_event') return undefined;
  const { params } = step.data;
  return {
    id: 'evt_sample_waited',
    event: typeof params.event === 'string' ? params.event : '',
    occurredAt: SAMPLE_TIME,
    data: sampleData(params, SAMPLE_TIME),
  };
}

/**
 * A trigger payload to preview expressions against, built from the template: an event of the trigger's type with a
 * value for each of its fields (a deposit of 150,000 for a transaction), a schedule's tick, or the declared inputs.
 */
export function samplePayload(scope: CodeScope | null): Record<string, unknown> {
  const trigger = scope ? triggerOf(scope) : undefined;
  const at = SAMPLE_TIME;
  if (!trigger) return {};
  const { type, params } = trigger.data;
  if (type === 'trigger.event') {
    const data = sampleData(params, at);
    return {
      id: 'evt_sample',
      event: typeof params.event === 'string' ? params.event : 'entity_event.transaction',
      occurredAt: at,
      entity: { id: 'ent_sample', externalId: 'p-1', entityType: 'player' },
      data,
    };
  }
  if (type === 'trigger.schedule') return { scheduledAt: at, triggerNodeId: trigger.id };
  return Object.fromEntries(inputPropertiesOf(params).properties.map((name) => [name, sampleValue(name, at)]));
}

/** A player to preview `player.*` against, with a value for each field the template gives a player and each state. */
export function samplePlayer(): Record<string, unknown> {
  const at = SAMPLE_TIME;
  const states = PLAYER_FIELDS.find((field) => field.name === 'states')?.fields ?? [];
  const stateValues = Object.fromEntries(states.map(({ name }) => [name, name === 'consent' ? { email: true } : sampleValue(name, at)]));
  const profile = PLAYER_FIELDS.filter((field) => !field.fields && !['externalId', 'entityType', '_cut'].includes(field.name));
  return {
    ...Object.fromEntries(profile.map(({ name }) => [name, name in stateValues ? stateValues[name] : sampleValue(name, at)])),
    status: 'active',
    externalId: 'p-1',
    entityType: 'player',
    states: stateValues,
  };
}
