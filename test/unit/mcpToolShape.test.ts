import { toolAnnotations } from '../../core/mcpToolAnnotations';
import { SUPPRESSED_OUTPUT_SCHEMA } from '../../core/automations/nodes/marketing';
import { ACTION_OUTPUT_SCHEMAS, runOutputSchema } from '../../core/automations/runOutput';
import type { NodeType, AutomationDefinition, AutomationEdge } from '../../core/automations/types';

const node = (id: string, type: NodeType, params: Record<string, unknown> = {}) => ({ id, type, params });
const start = node('start', 'trigger.manual');
const chain = (...nodes: ReturnType<typeof node>[]): AutomationDefinition => ({
  nodes: [start, ...nodes],
  edges: nodes.map((next, index) => ({ from: index === 0 ? 'start' : nodes[index - 1]!.id, to: next.id })),
});
const http = (id: string, method: string) => node(id, 'action.http_request', { method, url: 'https://supplier.example/x' });

describe('runOutputSchema: what a completed run returns', () => {
  it('is the last action’s output schema when every action always runs', () => {
    expect(runOutputSchema(chain(http('a', 'GET'), node('b', 'action.delay', { seconds: 1 })), 'start')).toEqual(ACTION_OUTPUT_SCHEMAS['action.delay']);
    expect(runOutputSchema(chain(node('s', 'action.set_state')), 'start')).toEqual({
      type: 'object',
      properties: { externalId: { type: 'string' }, key: { type: 'string' }, value: {} },
      required: ['externalId', 'key'],
    });
  });

  it('declares nothing without an action that runs on every completed run (the output may be the trigger payload)', () => {
    expect(runOutputSchema(chain(), 'start')).toBeNull();
    expect(runOutputSchema(chain(node('check', 'condition', { expression: 'true' })), 'start')).toBeNull();
    const onlyWhenTrue: AutomationDefinition = {
      nodes: [start, node('check', 'condition'), http('call', 'POST')],
      edges: [
        { from: 'start', to: 'check' },
        { from: 'check', to: 'call', when: true },
      ],
    };
    expect(runOutputSchema(onlyWhenTrue, 'start')).toBeNull();
  });

  it('after a certain action, branches that may run later make an anyOf of their schemas', () => {
    const edges: AutomationEdge[] = [
      { from: 'start', to: 'store' },
      { from: 'store', to: 'check' },
      { from: 'check', to: 'mail', when: true },
    ];
    const def: AutomationDefinition = {
      nodes: [start, node('store', 'action.set_state'), node('check', 'condition'), node('mail', 'action.send_email')],
      edges,
    };
    expect(runOutputSchema(def, 'start')).toEqual({
      type: 'object',
      anyOf: [ACTION_OUTPUT_SCHEMAS['action.set_state'], ACTION_OUTPUT_SCHEMAS['action.send_email'], SUPPRESSED_OUTPUT_SCHEMA],
    });
  });

  it('a node fed by both branches of a condition always runs', () => {
    const def: AutomationDefinition = {
      nodes: [start, node('check', 'condition'), node('yes', 'action.ai'), node('no', 'action.delay'), node('join', 'action.record_event')],
      edges: [
        { from: 'start', to: 'check' },
        { from: 'check', to: 'yes', when: true },
        { from: 'check', to: 'no', when: false },
        { from: 'check', to: 'join', when: true },
        { from: 'check', to: 'join', when: false },
      ],
    };
    expect(runOutputSchema(def, 'start')).toEqual(ACTION_OUTPUT_SCHEMAS['action.record_event']);
  });

  it('ignores nodes only another trigger reaches', () => {
    const def: AutomationDefinition = {
      nodes: [start, node('wait', 'action.delay'), node('nightly', 'trigger.schedule'), node('mail', 'action.send_email')],
      edges: [
        { from: 'start', to: 'wait' },
        { from: 'nightly', to: 'mail' },
      ],
    };
    expect(runOutputSchema(def, 'start')).toEqual(ACTION_OUTPUT_SCHEMAS['action.delay']);
  });
});

describe('toolAnnotations: safe hints from the actions a run can reach', () => {
  const hints = (readOnlyHint: boolean, destructiveHint: boolean, idempotentHint: boolean, openWorldHint: boolean) => ({
    readOnlyHint,
    destructiveHint,
    idempotentHint,
    openWorldHint,
  });

  it.each<[string, AutomationDefinition, ReturnType<typeof hints>]>([
    ['no action at all', chain(), hints(true, false, true, false)],
    ['an http GET', chain(http('a', 'GET')), hints(true, false, true, true)],
    ['a delay', chain(node('w', 'action.delay', { seconds: 1 })), hints(true, false, true, false)],
    ['an AI call', chain(node('ai', 'action.ai')), hints(true, false, true, true)],
    ['an http POST', chain(http('a', 'POST')), hints(false, true, false, true)],
    ['an http PATCH', chain(http('a', 'PATCH')), hints(false, true, false, true)],
    ['an http PUT', chain(http('a', 'PUT')), hints(false, true, true, true)],
    ['an http DELETE', chain(http('a', 'DELETE')), hints(false, true, true, true)],
    ['a gateway call', chain(node('g', 'action.gateway')), hints(false, true, false, true)],
    ['a state write', chain(node('s', 'action.set_state')), hints(false, true, false, false)],
    ['an entity upsert', chain(node('e', 'action.upsert_entity')), hints(false, true, false, false)],
    ['an event record', chain(node('r', 'action.record_event')), hints(false, false, false, false)],
    ['an e-mail', chain(node('m', 'action.send_email')), hints(false, false, false, true)],
    ['GET then event record', chain(http('a', 'GET'), node('r', 'action.record_event')), hints(false, false, false, true)],
    ['PUT then DELETE', chain(http('a', 'PUT'), http('b', 'DELETE')), hints(false, true, true, true)],
  ])('%s', (_label, def, expected) => {
    expect(toolAnnotations(def, 'start')).toEqual(expected);
  });

  it('counts actions on every branch, and not those only another trigger reaches', () => {
    const def: AutomationDefinition = {
      nodes: [
        start,
        node('check', 'condition'),
        http('read', 'GET'),
        node('write', 'action.set_state'),
        node('nightly', 'trigger.schedule'),
        node('mail', 'action.send_email'),
      ],
      edges: [
        { from: 'start', to: 'check' },
        { from: 'check', to: 'read', when: true },
        { from: 'check', to: 'write', when: false },
        { from: 'nightly', to: 'mail' },
      ],
    };
    expect(toolAnnotations(def, 'start')).toEqual(hints(false, true, false, true));
  });
});
