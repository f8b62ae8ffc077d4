import { useEffect, useId, useRef, useState } from 'react';
import type { FieldProblem } from '../../../../api/errors';
import { SelectField, TextField } from '../../../../components/Field';
import { formatValue, KeyValueEditor } from '../../../../components/KeyValueEditor';
import type { FieldSpec, Params } from './catalog';
import { CodeField } from './code/CodeField';
import { ObjectField } from './code/ObjectField';
import { useCodeScope } from './code/scope';
import { describe, looksLikeJson, readValue, rememberTyped, typedText } from './code/typedValue';
import { SchemaEditor } from './SchemaEditor';
import { useConnections } from '../../../connections/api/connections';

interface Props {
  field: FieldSpec;
  params: Params;
  onChange: (params: Params) => void;
  problems: FieldProblem[];
}

/** Sets a param, or drops it when emptied and optional (the API refuses empty strings, not absent params). */
function set(params: Params, name: string, value: unknown, required: boolean): Params {
  const next = { ...params };
  if (!required && (value === '' || value === undefined)) delete next[name];
  else next[name] = value;
  return next;
}

const TIMEZONES = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC', 'Europe/London', 'Europe/Malta', 'America/New_York'];
  }
})();

/** One param of a step, edited the way its kind needs. */
export function ParamField({ field, params, onChange, problems }: Props) {
  const listId = useId();
  const value = params[field.name];
  switch (field.kind) {
    case 'text': {
      const common = {
        label: field.label,
        hint: field.hint,
        problems,
        value: typeof value === 'string' ? value : formatValue(value),
        placeholder: field.placeholder,
      };
      const update = (text: string) => onChange(set(params, field.name, text, field.required ?? false));
      if (field.multiline || field.hint?.includes('{{')) {
        return <CodeField {...common} mode="template" preview="template" onChange={update} />;
      }
      return (
        <>
          <TextField
            {...common}
            type="text"
            inputMode={field.type === 'email' ? 'email' : field.type === 'url' ? 'url' : undefined}
            list={field.suggestions ? listId : undefined}
            onChange={(event) => update(event.target.value)}
          />
          {field.suggestions && (
            <datalist id={listId}>
              {field.suggestions.map((option) => (
                <option key={option} value={option} />
              ))}
            </datalist>
          )}
        </>
      );
    }
    case 'expression':
      return (
        <CodeField
          label={field.label}
          hint={field.hint}
          problems={problems}
          mode="jsonata"
          preview="condition"
          placeholder={field.placeholder}
          value={typeof value === 'string' ? value : ''}
          onChange={(text) => onChange(set(params, field.name, text, field.required ?? false))}
        />
      );
    case 'select':
      return (
        <SelectField
          label={field.label}
          problems={problems}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(set(params, field.name, event.target.value, !field.optional))}
        >
          {field.options.map(([option, label]) => (
            <option key={option} value={option}>
              {label}
            </option>
          ))}
        </SelectField>
      );
    case 'number':
      return (
        <TextField
          label={field.label}
          hint={field.hint}
          problems={problems}
          type="number"
          min={field.min}
          max={field.max}
          value={typeof value === 'number' ? String(value) : ''}
          onChange={(event) => onChange(set(params, field.name, event.target.value === '' ? undefined : Number(event.target.value), true))}
        />
      );
    case 'value':
      return <ValueField field={field} params={params} onChange={onChange} problems={problems} />;
    case 'object': {
      const update = (object: Record<string, unknown>) =>
        onChange(set(params, field.name, Object.keys(object).length === 0 && field.name !== 'data' ? undefined : object, field.name === 'data'));
      const current = (value ?? undefined) as Record<string, unknown> | undefined;
      if (field.stringsOnly) {
        return (
          <KeyValueEditor
            legend={field.label}
            hint={field.hint}
            keyLabel={field.keyLabel ?? 'Field'}
            stringsOnly
            value={current}
            onChange={update}
            problems={problems}
          />
        );
      }
      return (
        <ObjectField
          legend={field.label}
          hint={field.hint}
          keyLabel={field.keyLabel ?? 'Field'}
          name={field.name}
          value={current}
          onChange={update}
          problems={problems}
        />
      );
    }
    case 'schema':
      return <SchemaEditor legend={field.label} value={value} onChange={(schema) => onChange(set(params, field.name, schema, false))} problems={problems} />;
    case 'secret':
      return <SecretField params={params} onChange={onChange} problems={problems} />;
    case 'connection':
      return (
        <ConnectionField
          label={field.label}
          value={typeof value === 'string' ? value : ''}
          onChange={(id) => onChange(set(params, field.name, id, true))}
          problems={problems}
        />
      );
    case 'timezone':
      return (
        <SelectField
          label={field.label}
          problems={problems}
          value={typeof value === 'string' ? value : 'UTC'}
          onChange={(event) => onChange(set(params, field.name, event.target.value, true))}
        >
          {TIMEZONES.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </SelectField>
      );
  }
}

/**
 * Any JSON value typed as text: `80` is a number, `true` a boolean, `{…}` an object, the rest text. What the designer
 * types is kept as typed (indentation and all, also across undo and reselecting the step): it is parsed and stored
 * when valid; JSON that does not parse is pointed out and the last valid value is kept.
 */
function ValueField({ field, params, onChange, problems }: Props & { field: Extract<FieldSpec, { kind: 'value' }> }) {
  const nodeId = useCodeScope()?.nodeId ?? '';
  const current = params[field.name];
  const [text, setText] = useState(() => typedText(nodeId, field.name, current));
  const stored = useRef(JSON.stringify(current ?? null));
  useEffect(() => {
    const now = JSON.stringify(current ?? null);
    if (now === stored.current) return;
    stored.current = now;
    setText(typedText(nodeId, field.name, current));
  }, [current, nodeId, field.name]);
  const read = readValue(text);
  const kind = describe(read.ok ? read.value : undefined);
  return (
    <CodeField
      label={field.label}
      hint={`${field.hint ?? ''} Read as ${kind}.`}
      problems={problems}
      typing={read.ok ? null : read.problem}
      mode={looksLikeJson(text) ? 'json' : 'template'}
      preview={looksLikeJson(text) ? undefined : 'template'}
      value={text}
      onChange={(next) => {
        setText(next);
        const parsed = readValue(next);
        if (!parsed.ok) return;
        const value = parsed.value === undefined && field.required ? '' : parsed.value;
        stored.current = JSON.stringify(value ?? null);
        rememberTyped(nodeId, field.name, next, value);
        onChange(set(params, field.name, value, field.required ?? false));
      }}
    />
  );
}

/** A webhook's signing secret is write-only: the record only says whether one is set. */
function SecretField({ params, onChange, problems }: Omit<Props, 'field'>) {
  const hasSecret = params.hasSecret === true;
  const typed = typeof params.secret === 'string' ? params.secret : '';
  return (
    <div>
      <TextField
        label={hasSecret ? 'Replace the signing secret' : 'Signing secret (optional)'}
        type="password"
        autoComplete="off"
        value={typed}
        problems={problems}
        hint={
          hasSecret
            ? 'A secret is set; leave empty to keep it. Senders sign the body: X-Service-Signature = hex HMAC-SHA256.'
            : '16 to 256 characters. Senders then sign each body (X-Service-Signature, hex HMAC-SHA256).'
        }
        onChange={(event) => onChange(set(params, 'secret', event.target.value, false))}
      />
      {hasSecret && (
        <button type="button" className="button button-small" onClick={() => onChange({ ...params, secret: null })}>
          Remove the secret on save
        </button>
      )}
      {typeof params.webhookId === 'string' && (
        <p className="hint">
          URL: <code>{`${window.location.origin}/webhook-receiver/${params.webhookId}`}</code>
        </p>
      )}
    </div>
  );
}

function ConnectionField({ label, value, onChange, problems }: { label: string; value: string; onChange: (id: string) => void; problems: FieldProblem[] }) {
  const connections = useConnections();
  const list = connections.data?.data ?? [];
  return (
    <SelectField
      label={label}
      value={value}
      problems={problems}
      hint={list.length === 0 && connections.data ? 'No connections yet: add one under Connections.' : undefined}
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">Choose a connection</option>
      {list.map((connection) => (
        <option key={connection.id} value={connection.id}>
          {connection.name}
        </option>
      ))}
      {value && !list.some((connection) => connection.id === value) && <option value={value}>{value}</option>}
    </SelectField>
  );
}
