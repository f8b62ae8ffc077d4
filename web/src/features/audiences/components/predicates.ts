import type { BodyOf } from '../../../api/types';
import { formatMoney, formatNumber } from '../../../format';

/** An audience's definition as the API takes and answers it (docs/analytics.md "Audiences"). */
export type AudienceDefinition = BodyOf<'/analytics-api/analytics/audiences', 'post'>['definition'];
export type AudiencePredicate = NonNullable<AudienceDefinition['all']>[number];
export type AudienceField = AudiencePredicate['field'];

export const COMPARISONS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'] as const;
export type Op = (typeof COMPARISONS)[number] | 'in' | 'not_in' | 'exists' | 'not_exists';

/** How a predicate's value is typed in: whole days, a count, minor units of money, a state's stored value, country codes. */
export type ValueKind = 'days' | 'count' | 'money' | 'state' | 'countries';

export interface FieldSpec {
  label: string;
  ops: readonly Op[];
  value: ValueKind;
  hint: string;
  /** Takes an optional window of days (`days`); all time without one. */
  window?: boolean;
  /** Takes a required `currency`. */
  currency?: boolean;
  /** Names a state of the entity state store (`key`). */
  key?: boolean;
}

/**
 * The predicates the API takes, one row each: the form draws its field choices, operators and inputs from here. A
 * `Record` over the OpenAPI document's field union, so a field the API adds fails the dashboard's type check until it
 * has a row.
 */
export const FIELDS: Record<AudienceField, FieldSpec> = {
  ftd_days_ago: {
    label: 'Days since first deposit',
    ops: COMPARISONS,
    value: 'days',
    hint: 'Whole UTC days since the first completed deposit ever (any currency); a player without one never matches.',
  },
  deposit_count: {
    label: 'Number of deposits',
    ops: COMPARISONS,
    value: 'count',
    window: true,
    hint: 'Completed deposits in any currency.',
  },
  deposit_amount: {
    label: 'Deposit amount',
    ops: COMPARISONS,
    value: 'money',
    window: true,
    currency: true,
    hint: 'Sum of completed deposits in the currency.',
  },
  last_activity_days_ago: {
    label: 'Days since last activity',
    ops: COMPARISONS,
    value: 'days',
    hint: 'Whole UTC days since the last game round or completed deposit; since registration for a player never active.',
  },
  ggr: {
    label: 'GGR to date',
    ops: COMPARISONS,
    value: 'money',
    currency: true,
    hint: 'Bets minus wins of all the player’s rounds in the currency.',
  },
  state: {
    label: 'Player state',
    ops: [...COMPARISONS, 'in', 'not_in', 'exists', 'not_exists'],
    value: 'state',
    key: true,
    hint: 'A state of the player as stored (e.g. loyalty_tier); “does not equal” and “is none of” include players without it.',
  },
  country: {
    label: 'Country',
    ops: ['in', 'not_in'],
    value: 'countries',
    hint: 'ISO 3166 codes separated by commas (MT, GB); “is none of” includes players without a country.',
  },
};

export const FIELD_NAMES = Object.keys(FIELDS) as AudienceField[];

/** What each operator reads as in the form's choice list. */
export const OP_LABEL: Record<Op, string> = {
  eq: 'equals',
  ne: 'does not equal',
  lt: 'is less than',
  lte: 'is at most',
  gt: 'is more than',
  gte: 'is at least',
  in: 'is one of',
  not_in: 'is none of',
  exists: 'is set',
  not_exists: 'is not set',
};

const SYMBOL: Partial<Record<Op, string>> = { eq: '=', ne: '≠', lt: '<', lte: '≤', gt: '>', gte: '≥' };

const opText = (op: Op) => SYMBOL[op] ?? OP_LABEL[op];
const windowText = (days: number | undefined) => (days === undefined ? ' (all time)' : ` in the last ${days === 1 ? 'day' : `${formatNumber(days)} days`}`);
const stateText = (value: unknown): string =>
  Array.isArray(value) ? value.map(stateText).join(', ') : typeof value === 'string' ? `“${value}”` : String(value);

/** One predicate in words, for the audience's page: "Deposit amount in EUR ≥ €20.00 in the last 30 days". */
export function describePredicate(predicate: AudiencePredicate): string {
  const spec = FIELDS[predicate.field];
  switch (predicate.field) {
    case 'ftd_days_ago':
    case 'last_activity_days_ago':
      return `${spec.label} ${opText(predicate.op)} ${formatNumber(predicate.value)}`;
    case 'deposit_count':
      return `${spec.label} ${opText(predicate.op)} ${formatNumber(predicate.value)}${windowText(predicate.days)}`;
    case 'deposit_amount':
      return `${spec.label} in ${predicate.currency} ${opText(predicate.op)} ${formatMoney(predicate.value, predicate.currency)}${windowText(predicate.days)}`;
    case 'ggr':
      return `${spec.label} in ${predicate.currency} ${opText(predicate.op)} ${formatMoney(predicate.value, predicate.currency)}`;
    case 'state':
      return `State ${predicate.key} ${opText(predicate.op)}${predicate.value === undefined ? '' : ` ${stateText(predicate.value)}`}`;
    case 'country':
      return `${spec.label} ${opText(predicate.op)} ${predicate.value.join(', ')}`;
  }
}

/** How the predicates combine, and each in words. */
export function describeDefinition(definition: AudienceDefinition): { combine: 'all' | 'any'; lines: string[] } {
  const combine = definition.all ? 'all' : 'any';
  return { combine, lines: (definition.all ?? definition.any ?? []).map(describePredicate) };
}
