import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { TextArea, TextField } from '../../../components/Field';
import { KeyValueEditor } from '../../../components/KeyValueEditor';
import { ErrorNotice } from '../../../components/Status';
import { createConnector } from '../api/connections';

/** A new connector from an uploaded or pasted OpenAPI/Swagger document (JSON or YAML) and its schemaMap. */
export function ConnectorForm({ onCancel, onSaved }: { onCancel: () => void; onSaved: () => void }) {
  const [name, setName] = useState('');
  const [provider, setProvider] = useState('');
  const [document, setDocument] = useState('');
  const [schemaMap, setSchemaMap] = useState<Record<string, unknown>>({});
  const save = useAction(async () => {
    await createConnector({
      name: name.trim(),
      provider: provider.trim(),
      ...(document.trim() ? { openapi: document } : {}),
      schemaMap: schemaMap as Record<string, string>,
    });
    onSaved();
  });
  const problems = (field: string) => save.error?.problemsAt(field);
  return (
    <form
      className="panel"
      aria-label="New connector"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h3>New connector</h3>
      <div className="grid-2">
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} required problems={problems('name')} />
        <TextField
          label="Provider"
          value={provider}
          onChange={(event) => setProvider(event.target.value)}
          required
          hint="A short id, e.g. verikyc"
          problems={problems('provider')}
        />
      </div>
      <div className="field">
        <label htmlFor="openapi-file">OpenAPI or Swagger document (JSON or YAML)</label>
        <input
          id="openapi-file"
          type="file"
          accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
          onChange={(event) => void event.target.files?.[0]?.text().then(setDocument)}
        />
      </div>
      <TextArea label="Or paste the document" value={document} onChange={(event) => setDocument(event.target.value)} rows={6} problems={problems('openapi')} />
      <KeyValueEditor
        legend="Field names (schemaMap)"
        keyLabel="Your field"
        valueLabel="Supplier's field"
        stringsOnly
        value={schemaMap}
        onChange={setSchemaMap}
        hint="e.g. playerId → player_ref. Renamed at any depth on the way out, and back on the way in; unmapped fields pass as they are."
        problems={problems('schemaMap')}
      />
      <ErrorNotice error={save.error} title="The connector was not saved." />
      <div className="row-actions">
        <button type="submit" className="button button-primary" disabled={save.pending || !name.trim() || !provider.trim()}>
          {save.pending ? 'Saving…' : 'Save connector'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
