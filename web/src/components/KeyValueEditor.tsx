import { useId, useState } from 'react';
import type { FieldProblem } from '../api/errors';

/**
 * Text as a person types it → the JSON value it means: numbers, true/false, null, and `{…}`/`[…]` are
 * read as such; anything else (including `{{ expressions }}`) stays text. Quotes force text: `"80"`.
 */
export function parseValue(text: string): unknown {
  const trimmed = text.trim();
  if (/^\{\{[\s\S]*\}\}$/.test(trimmed)) return text;
  if (/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|"[\s\S]*"|\{[\s\S]*\}|\[[\s\S]*\])$/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return text;
    }
  }
  return text;
}

/** The inverse of `parseValue`: a value shown so that editing it back gives the same value. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return parseValue(value) === value ? value : JSON.stringify(value);
  return value === undefined ? '' : JSON.stringify(value);
}

interface Row {
  key: string;
  value: string;
}

const rowsOf = (value: Record<string, unknown> | undefined, stringsOnly: boolean): Row[] =>
  Object.entries(value ?? {}).map(([key, inner]) => ({ key, value: stringsOnly ? String(inner) : formatValue(inner) }));

interface Props {
  legend: string;
  value: Record<string, unknown> | undefined;
  onChange: (value: Record<string, unknown>) => void;
  keyLabel?: string;
  valueLabel?: string;
  /** Values are kept as typed (headers, schemaMap). */
  stringsOnly?: boolean;
  hint?: string;
  problems?: FieldProblem[];
  disabled?: boolean;
}

/** Named values edited as rows of two fields, so nobody has to write an object literal. */
export function KeyValueEditor({ legend, value, onChange, keyLabel = 'Name', valueLabel = 'Value', stringsOnly = false, hint, problems, disabled }: Props) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(value, stringsOnly));
  const id = useId();
  const emit = (next: Row[]) => {
    setRows(next);
    const object: Record<string, unknown> = {};
    for (const row of next) if (row.key.trim() !== '') object[row.key.trim()] = stringsOnly ? row.value : parseValue(row.value);
    onChange(object);
  };
  const update = (index: number, patch: Partial<Row>) => emit(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="kv" disabled={disabled}>
      <legend>{legend}</legend>
      {hint && <p className="hint">{hint}</p>}
      {rows.length === 0 && <p className="hint">None yet.</p>}
      {rows.map((row, index) => (
        <div className="kv-row" key={index}>
          <label className="visually-hidden" htmlFor={`${id}-k${index}`}>
            {keyLabel} {index + 1}
          </label>
          <input id={`${id}-k${index}`} placeholder={keyLabel} value={row.key} onChange={(event) => update(index, { key: event.target.value })} />
          <label className="visually-hidden" htmlFor={`${id}-v${index}`}>
            {valueLabel} {index + 1}
          </label>
          <input id={`${id}-v${index}`} placeholder={valueLabel} value={row.value} onChange={(event) => update(index, { value: event.target.value })} />
          <button
            type="button"
            className="button button-small"
            aria-label={`Remove ${row.key || `row ${index + 1}`}`}
            onClick={() => emit(rows.filter((_, at) => at !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="button button-small" onClick={() => setRows([...rows, { key: '', value: '' }])}>
        Add {keyLabel.toLowerCase()}
      </button>
      {problems && problems.length > 0 && (
        <p className="field-error" role="alert">
          {problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ')}
        </p>
      )}
    </fieldset>
  );
}
