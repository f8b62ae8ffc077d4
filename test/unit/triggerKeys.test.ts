import { MAX_TRIGGER_KEYS, triggerKeysOf } from '../../core/automations/triggerKeys';
import type { AutomationNode } from '../../core/automations/types';

const on = (event: string, filter?: string): AutomationNode => ({
  id: `on-${event}-${filter ?? ''}`,
  type: 'trigger.event',
  params: { event, ...(filter ? { filter } : {}) },
});
const TX = 'entity_event.transaction';

describe('triggerKeysOf: what a definition demands of an event’s data before any filter can pass', () => {
  it('keys a top-level equality on the data by each value it demands', () => {
    expect(triggerKeysOf([on(TX, 'trigger.data.amount = 5')], null)).toEqual([{ event: TX, path: ['amount'], value: 5 }]);
    expect(triggerKeysOf([on(TX, 'trigger.data.type in ["deposit", "bonus"] and trigger.data.amount > 10')], null)).toEqual([
      { event: TX, path: ['type'], value: 'deposit' },
      { event: TX, path: ['type'], value: 'bonus' },
    ]);
    expect(triggerKeysOf([on(TX, 'null = trigger.data.meta.level')], null)).toEqual([{ event: TX, path: ['meta', 'level'], value: null }]);
  });

  it('hears every event of the name where the ingest cannot narrow', () => {
    for (const filter of [
      undefined,
      ' ',
      'trigger.data.amount > 5',
      'trigger.data.eventId = "x"',
      'trigger.entity.externalId = "p"',
      'trigger.data.a = 1 or trigger.data.b = 2',
      '$contains(trigger.data.note, "x")',
      'trigger.data.amount =',
    ])
      expect(triggerKeysOf([on(TX, filter)], null)).toEqual([{ event: TX, path: null }]);
  });

  it('hears every event where the key could not be stored: a NUL, a lone surrogate, a long value', () => {
    for (const literal of ['"a\\u0000b"', '"\\ud800"', `"${'x'.repeat(600)}"`])
      expect(triggerKeysOf([on(TX, `trigger.data.note = ${literal}`)], null)).toEqual([{ event: TX, path: null }]);
    expect(triggerKeysOf([on(TX, 'trigger.data.note = "\\ud83d\\ude00"')], null)).toEqual([{ event: TX, path: ['note'], value: '😀' }]);
  });

  it(`hears every event of each name past ${MAX_TRIGGER_KEYS} keys`, () => {
    const values = Array.from({ length: 300 }, (_, index) => index).join(',');
    const nodes = Array.from({ length: 4 }, (_, index) => ({ ...on(TX, `trigger.data.amount in [${values}]`), id: `on${index}` }));
    expect(triggerKeysOf(nodes.slice(0, 3), null)).toHaveLength(300);
    const many = [
      ...nodes.map((node, index) => ({ ...node, params: { ...node.params, filter: `trigger.data.n${index} in [${values}]` } })),
      on('entity_event.kyc'),
    ];
    expect(triggerKeysOf(many, null)).toEqual([
      { event: TX, path: null },
      { event: 'entity_event.kyc', path: null },
    ]);
  });

  it('adds every event of each cancel_on name, and each key once', () => {
    const nodes = [
      on(TX, 'trigger.data.amount = 5'),
      { ...on(TX, 'trigger.data.amount = 5'), id: 'again' },
      { id: 'wait', type: 'action.delay', params: { seconds: 1 } } as AutomationNode,
    ];
    expect(triggerKeysOf(nodes, { cancel_on: ['entity_event.kyc'] })).toEqual([
      { event: TX, path: ['amount'], value: 5 },
      { event: 'entity_event.kyc', path: null },
    ]);
  });
});
