import { useEffect, useRef, useState } from 'react';
import type { FieldProblem } from '../../../../../api/errors';
import { KeyValueEditor } from '../../../../../components/KeyValueEditor';
import { CodeField } from './CodeField';
import { useCodeScope } from './scope';
import { readValue, rememberTyped, typedText } from './typedValue';

interface Props {
  legend: string;
  hint?: string;
  keyLabel: string;
  value: Record<string, unknown> | undefined;
  onChange: (object: Record<string, unknown>) => void;
  problems: FieldProblem[];
  /** The field's name in the step's params: the typed JSON is kept under it. */
  name: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An object param (an event's fields, a player's fields, a supplier call's parameters): rows of name and value, or —
 * "Edit as JSON" — the whole object as JSON in a code editor, kept as typed and stored whenever it parses to an object.
 */
export function ObjectField({ legend, hint, keyLabel, value, onChange, problems, name }: Props) {
  const nodeId = useCodeScope()?.nodeId ?? '';
  const [asJson, setAsJson] = useState(false);
  /** The rows start afresh from the value each time the JSON is left (they keep their own text while shown). */
  const [rowsKey, setRowsKey] = useState(0);
  const [text, setText] = useState(() => typedText(nodeId, name, value ?? {}));
  const stored = useRef(JSON.stringify(value ?? {}));
  useEffect(() => {
    const now = JSON.stringify(value ?? {});
    if (now === stored.current) return;
    stored.current = now;
    setText(typedText(nodeId, name, value ?? {}));
  }, [value, nodeId, name]);
  const read = readValue(text);
  const typing = !read.ok ? read.problem : isObject(read.value) ? null : 'Must be a JSON object ({ … }); the last valid value is kept.';
  const toggle = (
    <button
      type="button"
      className="button button-small"
      aria-pressed={asJson}
      onClick={() => {
        if (asJson) setRowsKey((n) => n + 1);
        setAsJson(!asJson);
      }}
    >
      Edit as JSON
    </button>
  );
  if (!asJson) {
    return (
      <div className="object-field">
        <KeyValueEditor key={rowsKey} legend={legend} hint={hint} keyLabel={keyLabel} value={value} onChange={onChange} problems={problems} />
        {toggle}
      </div>
    );
  }
  return (
    <div className="object-field">
      <CodeField
        label={legend}
        hint={hint ?? 'A JSON object; its text values may hold {{ templates }}.'}
        problems={problems}
        typing={typing}
        mode="json"
        value={text}
        onChange={(next) => {
          setText(next);
          const parsed = readValue(next);
          if (!parsed.ok || !isObject(parsed.value)) return;
          stored.current = JSON.stringify(parsed.value);
          rememberTyped(nodeId, name, next, parsed.value);
          onChange(parsed.value);
        }}
      />
      {toggle}
    </div>
  );
}
