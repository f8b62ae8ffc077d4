import { describe, expect, it } from '@jest/globals';
import { definitionOf, draftOf, newPredicate, partsOf, placeProblems, withField, type DefinitionDraft, type PredicateDraft } from './definitionForm';
import { FIELD_NAMES, type AudienceDefinition } from './predicates';

/** One predicate of every field the API takes, each input it has filled (docs/analytics.md "Audiences"). */
const EVERY_FIELD: AudienceDefinition = {
  all: [
    { field: 'ftd_days_ago', op: 'lte', value: 6 },
    { field: 'deposit_count', op: 'eq', value: 1 },
    { field: 'deposit_count', op: 'gte', value: 2, days: 30 },
    { field: 'deposit_amount', op: 'gt', value: 100_000, currency: 'EUR', days: 7 },
    { field: 'last_activity_days_ago', op: 'gte', value: 14 },
    { field: 'ggr', op: 'lt', value: -500, currency: 'GBP' },
    { field: 'state', key: 'loyalty_tier', op: 'eq', value: 'gold' },
    { field: 'state', key: 'risk_score', op: 'gte', value: 80 },
    { field: 'state', key: 'vip', op: 'ne', value: true },
    { field: 'state', key: 'segment', op: 'in', value: ['a', 'b'] },
    { field: 'state', key: 'level', op: 'not_in', value: [1, 2] },
    { field: 'state', key: 'blocked', op: 'exists' },
    { field: 'country', op: 'not_in', value: ['MT', 'GB-SCT'] },
  ],
};

const draft = (predicates: Array<Partial<PredicateDraft> & Pick<PredicateDraft, 'field'>>, combine: 'all' | 'any' = 'all'): DefinitionDraft => ({
  combine,
  predicates: predicates.map((predicate) => ({ ...newPredicate(predicate.field), ...predicate })),
});

describe('the audience form and its definition', () => {
  it('reads a saved definition into the form and gives back the same definition, for every field and both lists', () => {
    expect(new Set(EVERY_FIELD.all!.map((predicate) => predicate.field))).toEqual(new Set(FIELD_NAMES));
    expect(definitionOf(draftOf(EVERY_FIELD))).toEqual(EVERY_FIELD);
    const any: AudienceDefinition = { any: EVERY_FIELD.all! };
    expect(definitionOf(draftOf(any))).toEqual(any);
    expect(draftOf(any).combine).toBe('any');
  });

  it('keeps each value as the form shows it: numbers as typed, lists joined, a state value with its type', () => {
    const form = draftOf(EVERY_FIELD);
    expect(form.predicates[3]).toMatchObject({ field: 'deposit_amount', op: 'gt', value: '100000', currency: 'EUR', days: '7' });
    expect(form.predicates[1]).toMatchObject({ days: '' });
    expect(form.predicates.slice(6, 11).map((predicate) => [predicate.key, predicate.value, predicate.valueType])).toEqual([
      ['loyalty_tier', 'gold', 'text'],
      ['risk_score', '80', 'number'],
      ['vip', 'true', 'boolean'],
      ['segment', 'a, b', 'text'],
      ['level', '1, 2', 'number'],
    ]);
    expect(form.predicates[12]).toMatchObject({ value: 'MT, GB-SCT' });
  });

  it('turns what was typed into the API’s body: numbers, lists split and trimmed, country codes upper-cased, only the inputs a field takes', () => {
    const typed = draft([
      { field: 'deposit_count', op: 'gte', value: ' 3 ', days: '', currency: 'EUR', key: 'ignored' },
      { field: 'deposit_amount', op: 'gte', value: '2000', currency: ' eur ', days: '30' },
      { field: 'country', op: 'in', value: 'mt, gb ,, de' },
      { field: 'state', op: 'in', key: ' tier ', value: 'gold, silver', valueType: 'text' },
      { field: 'state', op: 'eq', key: 'score', value: '5', valueType: 'text' },
      { field: 'state', op: 'eq', key: 'score', value: '5', valueType: 'number' },
      { field: 'state', op: 'not_exists', key: 'flag', value: 'left over' },
    ]);
    expect(definitionOf(typed)).toEqual({
      all: [
        { field: 'deposit_count', op: 'gte', value: 3 },
        { field: 'deposit_amount', op: 'gte', value: 2000, currency: 'EUR', days: 30 },
        { field: 'country', op: 'in', value: ['MT', 'GB', 'DE'] },
        { field: 'state', key: 'tier', op: 'in', value: ['gold', 'silver'] },
        { field: 'state', key: 'score', op: 'eq', value: '5' },
        { field: 'state', key: 'score', op: 'eq', value: 5 },
        { field: 'state', key: 'flag', op: 'not_exists' },
      ],
    });
    expect(definitionOf(draft([{ field: 'ftd_days_ago', op: 'lte', value: '1' }], 'any'))).toEqual({ any: [{ field: 'ftd_days_ago', op: 'lte', value: 1 }] });
  });

  it('leaves an empty value out and sends unreadable text as typed, so the API names that field', () => {
    expect(definitionOf(draft([{ field: 'ftd_days_ago', op: 'lte', value: '  ' }]))).toEqual({ all: [{ field: 'ftd_days_ago', op: 'lte' }] });
    expect(definitionOf(draft([{ field: 'ggr', op: 'gt', value: 'ten', currency: 'EUR' }]))).toEqual({
      all: [{ field: 'ggr', op: 'gt', value: 'ten', currency: 'EUR' }],
    });
    expect(definitionOf(draft([{ field: 'state', op: 'eq', key: 'vip', value: 'yes', valueType: 'boolean' }]))).toEqual({
      all: [{ field: 'state', key: 'vip', op: 'eq', value: 'yes' }],
    });
    expect(definitionOf({ combine: 'all', predicates: [] })).toEqual({ all: [] });
  });

  it('another field keeps the operator it takes, else takes the field’s first; the inputs follow field and operator', () => {
    const predicate = newPredicate('deposit_count');
    expect(withField({ ...predicate, op: 'gte' }, 'ggr').op).toBe('gte');
    expect(withField({ ...predicate, op: 'gte' }, 'country').op).toBe('in');
    expect(withField({ ...predicate, op: 'exists' }, 'ftd_days_ago').op).toBe('eq');
    expect(partsOf({ field: 'ftd_days_ago', op: 'eq' })).toEqual(['field', 'op', 'value']);
    expect(partsOf({ field: 'deposit_amount', op: 'gt' })).toEqual(['field', 'op', 'value', 'currency', 'days']);
    expect(partsOf({ field: 'state', op: 'exists' })).toEqual(['field', 'key', 'op']);
    expect(partsOf({ field: 'state', op: 'in' })).toEqual(['field', 'key', 'op', 'value']);
  });

  it('places each of the API’s problems beside the input its path names, and what it cannot place above the form', () => {
    const form = draft([
      { field: 'ftd_days_ago', op: 'lte', value: '5000' },
      { field: 'country', op: 'in', value: 'Malta' },
      { field: 'deposit_amount', op: 'gte', value: '1' },
    ]);
    const problem = (field: string) => ({ field, message: `bad ${field}` });
    const placed = placeProblems(
      [
        problem('name'),
        problem('definition.all.0.value'),
        problem('definition.all.1.value.0'),
        problem('definition.all.2.currency'),
        problem('definition.all.0.days'),
        problem('definition.all.1'),
        problem('definition.all'),
        problem('definition.all.7.value'),
        problem('definition.any.0.value'),
        problem('somewhere'),
      ],
      form,
    );
    expect(placed.name).toEqual([problem('name')]);
    expect(placed.predicates).toEqual([
      { value: [problem('definition.all.0.value')], other: [problem('definition.all.0.days')] },
      { value: [problem('definition.all.1.value.0')], other: [problem('definition.all.1')] },
      { currency: [problem('definition.all.2.currency')] },
    ]);
    expect(placed.list).toEqual([problem('definition.all'), problem('definition.all.7.value')]);
    expect(placed.unplaced).toEqual([problem('definition.any.0.value'), problem('somewhere')]);
  });
});
