import type { FieldProblem } from '../../../api/errors';
import { SelectField, TextField } from '../../../components/Field';
import { formatMoney } from '../../../format';
import { partsOf, takesList, withField, type Part, type PredicateDraft, type StateValueType } from './definitionForm';
import { FIELD_NAMES, FIELDS, OP_LABEL, type Op } from './predicates';

const VALUE_LABEL = { days: 'Days', count: 'Deposits', money: 'Amount in minor units', state: 'Value', countries: 'Country codes' } as const;

/** What a money value reads as, under its input: "= €50.00". */
function moneyHint(value: string, currency: string): string {
  const amount = Number(value);
  const code = currency.trim().toUpperCase();
  if (value.trim() === '' || !Number.isFinite(amount) || !/^[A-Z]{3}$/.test(code)) return 'Minor units: 5000 is 50.00 in a two-decimal currency.';
  return `= ${formatMoney(amount, code)}`;
}

/**
 * One condition of an audience: its field, operator and value inputs as the field takes them (a state's key, a
 * currency, a window of days), each showing the API's problem for its own path beside it.
 */
export function PredicateFields({
  index,
  predicate,
  problems,
  onChange,
  onRemove,
}: {
  index: number;
  predicate: PredicateDraft;
  problems: Partial<Record<Part | 'other', FieldProblem[]>>;
  onChange: (next: PredicateDraft) => void;
  /** Absent for the only condition: an audience has at least one. */
  onRemove?: () => void;
}) {
  const spec = FIELDS[predicate.field];
  const parts = partsOf(predicate);
  const set = (change: Partial<PredicateDraft>) => onChange({ ...predicate, ...change });
  const list = spec.value === 'countries' || takesList(predicate.op);
  const numeric = spec.value !== 'state' && spec.value !== 'countries';
  return (
    <fieldset className="audience-predicate">
      <legend>Condition {index + 1}</legend>
      <div className="audience-predicate-fields">
        <SelectField
          label="Field"
          value={predicate.field}
          hint={spec.hint}
          problems={problems.field}
          onChange={(event) => onChange(withField(predicate, event.target.value as PredicateDraft['field']))}
        >
          {FIELD_NAMES.map((field) => (
            <option key={field} value={field}>
              {FIELDS[field].label}
            </option>
          ))}
        </SelectField>
        {parts.includes('key') && (
          <TextField
            label="State key"
            value={predicate.key}
            hint="e.g. loyalty_tier"
            problems={problems.key}
            onChange={(event) => set({ key: event.target.value })}
          />
        )}
        <SelectField label="Operator" value={predicate.op} problems={problems.op} onChange={(event) => set({ op: event.target.value as Op })}>
          {spec.ops.map((op) => (
            <option key={op} value={op}>
              {OP_LABEL[op]}
            </option>
          ))}
        </SelectField>
        {spec.value === 'state' && parts.includes('value') && (
          <SelectField label="Value type" value={predicate.valueType} onChange={(event) => set({ valueType: event.target.value as StateValueType })}>
            <option value="text">Text</option>
            <option value="number">Number</option>
            <option value="boolean">true or false</option>
          </SelectField>
        )}
        {parts.includes('value') && (
          <TextField
            label={list && spec.value === 'state' ? 'Values' : VALUE_LABEL[spec.value]}
            value={predicate.value}
            inputMode={numeric ? 'decimal' : undefined}
            type={numeric ? 'number' : 'text'}
            hint={spec.value === 'money' ? moneyHint(predicate.value, predicate.currency) : list ? 'Separated by commas, at most 50' : undefined}
            problems={problems.value}
            onChange={(event) => set({ value: event.target.value })}
          />
        )}
        {parts.includes('currency') && (
          <TextField
            label="Currency"
            value={predicate.currency}
            maxLength={3}
            hint="ISO 4217, e.g. EUR"
            problems={problems.currency}
            onChange={(event) => set({ currency: event.target.value })}
          />
        )}
        {parts.includes('days') && (
          <TextField
            label="In the last … days"
            value={predicate.days}
            type="number"
            inputMode="numeric"
            hint="Empty for all time"
            problems={problems.days}
            onChange={(event) => set({ days: event.target.value })}
          />
        )}
      </div>
      {problems.other && problems.other.length > 0 && (
        <p className="field-error" role="alert">
          {problems.other.map((problem) => problem.message).join('; ')}
        </p>
      )}
      {onRemove && (
        <button type="button" className="button button-small" onClick={onRemove}>
          Remove condition {index + 1}
        </button>
      )}
    </fieldset>
  );
}
