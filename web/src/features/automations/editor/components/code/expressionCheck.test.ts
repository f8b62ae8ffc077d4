import { describe, expect, it } from '@jest/globals';
import { expressionWarnings, moneyPaths } from './expressionCheck';
import type { Field } from './scope';

/**
 * The editor's expression preview warnings (expressionCheck.ts): unknown fields and type mismatches against the names
 * completions offer, and money fields named with their unit. test/unit/editorFieldTypes.test.ts keeps fieldTypes.ts
 * equal to the server's template.
 */
const leaf = (name: string, extra: Partial<Field> = {}): Field => ({ name, detail: name, ...extra });
/** The run context of a step after a deposit trigger and an HTTP step, as contextFields builds it. */
const ROOTS: Field[] = [
  {
    name: 'trigger',
    detail: 'the trigger payload',
    fields: [
      {
        name: 'data',
        detail: 'the event’s fields',
        fields: [
          leaf('type', { type: 'string' }),
          leaf('amount', { type: 'number', money: true }),
          leaf('currency', { type: 'string' }),
          leaf('status', { type: 'string' }),
          leaf('timestamp', { type: 'string' }),
        ],
      },
      { name: 'entity', detail: 'the player', fields: [leaf('externalId'), leaf('id'), leaf('entityType')] },
      leaf('event'),
    ],
  },
  { name: 'nodes', detail: 'steps', fields: [{ name: 'call', detail: 'HTTP', fields: [leaf('status'), leaf('headers'), leaf('body')] }] },
  { name: 'workflow', detail: 'this workflow', fields: [leaf('id'), leaf('name'), leaf('version')] },
  { name: 'run', detail: 'this run', fields: [leaf('id'), leaf('source')] },
];

describe('expressionWarnings', () => {
  it('warns of a misspelt field with the closest name and what its parent has', () => {
    expect(expressionWarnings(ROOTS, 'trigger.data.ammount > 100000', 'condition')).toEqual([
      {
        kind: 'unknown_field',
        path: 'trigger.data.ammount',
        message: 'Unknown field trigger.data.ammount: did you mean trigger.data.amount? trigger.data has type, amount, currency, status, timestamp',
      },
    ]);
    expect(expressionWarnings(ROOTS, 'Hi {{ trigger.entity.externalid }} and {{ nodes.cal.status }}', 'template').map((warning) => warning.message)).toEqual([
      'Unknown field trigger.entity.externalid: did you mean trigger.entity.externalId? trigger.entity has externalId, id, entityType',
      'Unknown field nodes.cal: did you mean nodes.call? nodes has call',
    ]);
    expect(expressionWarnings(ROOTS, 'triger.data.amount > 5', 'condition')[0]?.message).toBe(
      'Unknown field triger: did you mean trigger? the run context has trigger, nodes, workflow, run',
    );
  });

  it('stays silent on known names, open values, variables, predicates, strings and the wait’s event and the player', () => {
    for (const expression of [
      'trigger.data.amount > 100000 and trigger.data.currency = "EUR"',
      'nodes.call.body.items[price > 5].name = "x"',
      '$count(nodes.call.body.list) > 0',
      '$sum(trigger.data.amount) >= 5000',
      '"trigger.data.ammount" = trigger.data.type',
      '($x := trigger.data.amount; $x > 5)',
      '{ "ammount": trigger.data.amount }.ammount > 1',
      'event.data.amount < trigger.data.amount',
      'player.first_name != null',
      'trigger.data.type in ["deposit", "withdrawal"]',
      'workflow.name & " v" & $string(workflow.version)',
    ]) {
      expect([expression, expressionWarnings(ROOTS, expression, 'condition')]).toEqual([expression, []]);
    }
    expect(expressionWarnings(ROOTS, 'Plain text, no template: trigger.data.ammount', 'template')).toEqual([]);
  });

  it('warns when a typed field is compared with a literal of another type, either side', () => {
    expect(expressionWarnings(ROOTS, 'trigger.data.amount = "5000"', 'condition')).toEqual([
      {
        kind: 'type_mismatch',
        path: 'trigger.data.amount',
        message: 'trigger.data.amount is a number (in minor units: compare with a number such as 5000), compared with text "5000": it is never equal',
      },
    ]);
    expect(expressionWarnings(ROOTS, '100 < trigger.data.currency', 'condition')[0]?.message).toBe(
      'trigger.data.currency is text, compared with a number 100: the run fails with EXPRESSION_ERROR',
    );
    expect(expressionWarnings(ROOTS, 'trigger.data.status != true', 'condition')[0]?.message).toBe(
      'trigger.data.status is text, compared with true or false true: it always differs',
    );
    // An untyped field (the HTTP status) is not judged.
    expect(expressionWarnings(ROOTS, 'nodes.call.status = "200"', 'condition')).toEqual([]);
  });
});

describe('money fields', () => {
  it('names the money fields an expression reads', () => {
    expect(moneyPaths(ROOTS, 'trigger.data.amount > 5000 and trigger.data.currency = "EUR"', 'condition')).toEqual(['trigger.data.amount']);
    expect(moneyPaths(ROOTS, 'You paid {{ trigger.data.amount / 100 }}', 'template')).toEqual(['trigger.data.amount']);
    expect(moneyPaths(ROOTS, 'trigger.data.type = "deposit"', 'condition')).toEqual([]);
  });
});
