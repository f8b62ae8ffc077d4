import { useId, useState } from 'react';
import type { FieldProblem } from '../../../../api/errors';

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'] as const;
interface Row {
  name: string;
  type: (typeof TYPES)[number];
  required: boolean;
}

function rowsOf(value: unknown): Row[] {
  const schema = value as { properties?: Record<string, { type?: string }>; required?: string[] } | undefined;
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    type: (TYPES as readonly string[]).includes(property.type ?? '') ? (property.type as Row['type']) : 'string',
    required: schema?.required?.includes(name) ?? false,
  }));
}

/**
 * The inputs a manual or webhook trigger expects, as rows (name, type, required) instead of a JSON
 * Schema: the result is the `{ type: "object", properties, required }` the API and MCP clients read.
 */
export function SchemaEditor({
  legend,
  value,
  onChange,
  problems,
}: {
  legend: string;
  value: unknown;
  onChange: (schema: unknown) => void;
  problems: FieldProblem[];
}) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(value));
  const id = useId();
  const emit = (next: Row[]) => {
    setRows(next);
    const named = next.filter((row) => row.name.trim() !== '');
    onChange(
      named.length === 0
        ? undefined
        : {
            type: 'object',
            properties: Object.fromEntries(named.map((row) => [row.name.trim(), { type: row.type }])),
            required: named.filter((row) => row.required).map((row) => row.name.trim()),
          },
    );
  };
  const update = (index: number, patch: Partial<Row>) => emit(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="kv">
      <legend>{legend}</legend>
      {rows.length === 0 && <p className="hint">None: the run accepts any input.</p>}
      {rows.map((row, index) => (
        <div className="kv-row schema-row" key={index}>
          <label className="visually-hidden" htmlFor={`${id}-n${index}`}>
            Input {index + 1} name
          </label>
          <input id={`${id}-n${index}`} placeholder="name" value={row.name} onChange={(event) => update(index, { name: event.target.value })} />
          <label className="visually-hidden" htmlFor={`${id}-t${index}`}>
            Input {index + 1} type
          </label>
          <select id={`${id}-t${index}`} value={row.type} onChange={(event) => update(index, { type: event.target.value as Row['type'] })}>
            {TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
          <span className="field-check">
            <input id={`${id}-r${index}`} type="checkbox" checked={row.required} onChange={(event) => update(index, { required: event.target.checked })} />
            <label htmlFor={`${id}-r${index}`}>required</label>
          </span>
          <button
            type="button"
            className="button button-small"
            onClick={() => emit(rows.filter((_, at) => at !== index))}
            aria-label={`Remove input ${row.name || index + 1}`}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="button button-small" onClick={() => setRows([...rows, { name: '', type: 'string', required: true }])}>
        Add an input
      </button>
      {problems.length > 0 && (
        <p className="field-error" role="alert">
          {problems.map((problem) => problem.message).join('; ')}
        </p>
      )}
    </fieldset>
  );
}
