import type { FieldProblem } from '../../../api/errors';
import { FIELDS, type AudienceDefinition, type AudienceField, type AudiencePredicate, type Op } from './predicates';

/** The API's cap on predicates per audience (`AUDIENCE_PREDICATES_MAX`). */
export const PREDICATES_MAX = 20;

/** How a state's typed text is read: states are stored JSON, so "5" and 5 are different values. */
export type StateValueType = 'text' | 'number' | 'boolean';

/** One predicate as the form holds it: every input's text, whichever the chosen field uses. */
export interface PredicateDraft {
  field: AudienceField;
  op: Op;
  /** A number, a state's value, or a list separated by commas (`in`, `not_in`, countries). */
  value: string;
  /** The window in days (deposit count and amount); empty is all time. */
  days: string;
  currency: string;
  key: string;
  valueType: StateValueType;
}

export interface DefinitionDraft {
  combine: 'all' | 'any';
  predicates: PredicateDraft[];
}

/** The input parts of one predicate, as the API names them in a problem's path (`definition.all.0.value`). */
export type Part = 'field' | 'op' | 'value' | 'days' | 'currency' | 'key';

export function newPredicate(field: AudienceField = 'deposit_count', currency = 'EUR'): PredicateDraft {
  return { field, op: FIELDS[field].ops[0]!, value: '', days: '', currency, key: '', valueType: 'text' };
}

export const newDraft = (currency = 'EUR'): DefinitionDraft => ({ combine: 'all', predicates: [newPredicate('deposit_count', currency)] });

/** Another field keeps what was typed; the operator stays when the new field takes it, else it is the field's first. */
export function withField(predicate: PredicateDraft, field: AudienceField): PredicateDraft {
  const ops = FIELDS[field].ops;
  return { ...predicate, field, op: ops.includes(predicate.op) ? predicate.op : ops[0]! };
}

/** The inputs a predicate shows for its field and operator. */
export function partsOf(predicate: Pick<PredicateDraft, 'field' | 'op'>): Part[] {
  const spec = FIELDS[predicate.field];
  const parts: Part[] = ['field'];
  if (spec.key) parts.push('key');
  parts.push('op');
  if (predicate.op !== 'exists' && predicate.op !== 'not_exists') parts.push('value');
  if (spec.currency) parts.push('currency');
  if (spec.window) parts.push('days');
  return parts;
}

export const takesList = (op: Op) => op === 'in' || op === 'not_in';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/**
 * A number when the text is one; otherwise the text itself, and nothing for an empty field. The server is the one
 * validator: a value the form cannot read is sent as it was typed and an empty one is left out, so the API's 400
 * names that very field and the form shows it there.
 */
function numberOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return NUMBER.test(trimmed) ? Number(trimmed) : trimmed;
}

function stateValueOf(text: string, type: StateValueType): string | number | boolean {
  if (type === 'number') return numberOf(text) ?? '';
  if (type === 'boolean') return text.trim() === 'true' ? true : text.trim() === 'false' ? false : text.trim();
  return text;
}

const listOf = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

const defined = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

function predicateOf(draft: PredicateDraft): Record<string, unknown> {
  const spec = FIELDS[draft.field];
  const parts = partsOf(draft);
  let value: unknown;
  if (!parts.includes('value')) value = undefined;
  else if (spec.value === 'countries') value = listOf(draft.value).map((code) => code.toUpperCase());
  else if (spec.value === 'state')
    value = takesList(draft.op) ? listOf(draft.value).map((item) => stateValueOf(item, draft.valueType)) : stateValueOf(draft.value, draft.valueType);
  else value = numberOf(draft.value);
  return defined({
    field: draft.field,
    ...(spec.key ? { key: draft.key.trim() } : {}),
    op: draft.op,
    value,
    ...(spec.currency ? { currency: draft.currency.trim().toUpperCase() } : {}),
    ...(spec.window ? { days: numberOf(draft.days) } : {}),
  });
}

/**
 * The definition the form stands for, as the API takes it. What the form cannot read is passed on as typed (see
 * `numberOf`), hence the one cast: the API's answer, not this function, says whether it is a valid definition.
 */
export function definitionOf(draft: DefinitionDraft): AudienceDefinition {
  return { [draft.combine]: draft.predicates.map(predicateOf) } as AudienceDefinition;
}

const textOf = (value: unknown): string => (Array.isArray(value) ? value.map(textOf).join(', ') : value === undefined ? '' : String(value));

function valueTypeOf(value: unknown): StateValueType {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'number' ? 'number' : typeof first === 'boolean' ? 'boolean' : 'text';
}

export function predicateDraftOf(predicate: AudiencePredicate, currency = 'EUR'): PredicateDraft {
  const draft = newPredicate(predicate.field, currency);
  draft.op = predicate.op;
  draft.value = textOf(predicate.value);
  if ('days' in predicate && predicate.days !== undefined) draft.days = String(predicate.days);
  if ('currency' in predicate) draft.currency = predicate.currency;
  if (predicate.field === 'state') {
    draft.key = predicate.key;
    draft.valueType = valueTypeOf(predicate.value);
  }
  return draft;
}

/** A saved definition in the form: `definitionOf(draftOf(d))` is `d` again, so saving unchanged makes no new version. */
export function draftOf(definition: AudienceDefinition, currency = 'EUR'): DefinitionDraft {
  const combine = definition.all ? 'all' : 'any';
  return { combine, predicates: (definition[combine] ?? []).map((predicate) => predicateDraftOf(predicate, currency)) };
}

export interface PlacedProblems {
  name: FieldProblem[];
  /** About the list as a whole (too many predicates, all and any together). */
  list: FieldProblem[];
  /** Per predicate, per input; `other` for a problem with the predicate itself or an input it does not show. */
  predicates: Array<Partial<Record<Part | 'other', FieldProblem[]>>>;
  /** Anything the form has no place for: shown in the notice above it. */
  unplaced: FieldProblem[];
}

/**
 * Where each of the API's problems goes in the form: `definition.all.1.value.0` beside predicate 2's value input,
 * `definition.all` above the list, `name` at the name. The path's list is the one the form sent (`all` or `any`).
 */
export function placeProblems(details: FieldProblem[], draft: DefinitionDraft): PlacedProblems {
  const placed: PlacedProblems = { name: [], list: [], predicates: draft.predicates.map(() => ({})), unplaced: [] };
  const prefix = `definition.${draft.combine}.`;
  for (const problem of details) {
    if (problem.field === 'name') placed.name.push(problem);
    else if (['definition', 'definition.all', 'definition.any'].includes(problem.field)) placed.list.push(problem);
    else if (problem.field.startsWith(prefix)) {
      const [index, part] = problem.field.slice(prefix.length).split('.');
      const target = placed.predicates[Number(index)];
      const draftPredicate = draft.predicates[Number(index)];
      if (!target || !draftPredicate) placed.list.push(problem);
      else {
        const slot = part && (partsOf(draftPredicate) as string[]).includes(part) ? (part as Part) : 'other';
        (target[slot] ??= []).push(problem);
      }
    } else placed.unplaced.push(problem);
  }
  return placed;
}
