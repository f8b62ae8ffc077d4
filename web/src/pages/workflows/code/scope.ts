import { createContext, useContext } from 'react';
import { CATALOG, EVENT_FIELDS, type NodeType, type Params } from '../catalog';
import { OUTPUT_FIELDS } from './outputFields';

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
  fields?: Field[];
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
const inputPropertiesOf = (params: Params): { properties: string[]; required: string[] } => {
  const schema = params.inputSchema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  return { properties: Object.keys(schema?.properties ?? {}), required: schema?.required ?? [] };
};

/** The fields of `trigger` for a trigger step: an event's envelope and its template fields, a schedule's, or the declared inputs. */
function triggerFields(trigger: CodeScope['nodes'][number] | undefined): Field[] {
  if (!trigger) return [];
  const { type, params } = trigger.data;
  if (type === 'trigger.event') {
    const spec = EVENT_FIELDS[eventTypeOf(params) ?? ''];
    const data = spec ? [...spec.required.map((name) => leaf(name, 'event field, required')), ...spec.optional.map((name) => leaf(name, 'event field'))] : [];
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
  const { properties, required } = inputPropertiesOf(params);
  return properties.map((name) => leaf(name, required.includes(name) ? 'input, required' : 'input'));
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
    { name: 'workflow', detail: 'this workflow', fields: [leaf('id', 'workflow id'), leaf('name', 'name'), leaf('version', 'version the run started on')] },
    { name: 'run', detail: 'this run', fields: [leaf('id', 'run id'), leaf('source', 'manual, event, webhook, schedule or mcp')] },
  ];
}

/** The time samples are dated with: fixed for the page, so an unchanged sample is the same request. */
const SAMPLE_TIME = new Date().toISOString();

const SAMPLE_VALUES: Record<string, unknown> = {
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
