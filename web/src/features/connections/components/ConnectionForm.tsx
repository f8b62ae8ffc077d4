import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import type { components } from '../../../api/schema';
import { Checkbox, SelectField, TextField } from '../../../components/Field';
import { ErrorNotice } from '../../../components/Status';
import { createConnection, updateConnection } from '../api/connections';

type Connection = components['schemas']['Connection'];
/** A connector as the list returns it (without its document and operations). */
type Connector = Omit<components['schemas']['Connector'], 'operations' | 'securitySchemes' | 'openapi'>;
const SECRETS = [
  ['apiKey', 'API key'],
  ['token', 'Bearer token'],
  ['username', 'Username'],
  ['password', 'Password'],
  ['secret', 'Signing secret (HMAC)'],
] as const;

/**
 * Creates or edits a connection. Credentials are write-only: they are stored encrypted and never shown
 * again; on edit, filling any of them replaces the whole set.
 */
export function ConnectionForm({
  connection,
  connectors,
  onCancel,
  onSaved,
}: {
  connection: Connection | null;
  connectors: Connector[];
  onCancel: () => void;
  onSaved: () => void;
}) {
  const [connectorId, setConnectorId] = useState(connection?.connectorId ?? connectors[0]?.id ?? '');
  const [name, setName] = useState(connection?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(connection?.baseUrl ?? '');
  const [active, setActive] = useState(connection?.active ?? true);
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  const filled = Object.fromEntries(Object.entries(credentials).filter(([, value]) => value !== ''));
  const save = useAction(async () => {
    if (connection) {
      await updateConnection(connection.id, {
        name: name.trim(),
        baseUrl: baseUrl.trim() || null,
        active,
        ...(Object.keys(filled).length > 0 ? { credentials: filled } : {}),
      });
    } else {
      await createConnection({ connectorId, name: name.trim(), credentials: filled, ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}), active });
    }
    onSaved();
  });
  const problems = (field: string) => save.error?.problemsAt(field);
  return (
    <form
      className="panel"
      aria-label={connection ? `Edit ${connection.name}` : 'New connection'}
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h3>{connection ? `Edit ${connection.name}` : 'New connection'}</h3>
      {!connection && (
        <SelectField label="Connector" value={connectorId} onChange={(event) => setConnectorId(event.target.value)} problems={problems('connectorId')}>
          {connectors.map((connector) => (
            <option key={connector.id} value={connector.id}>
              {connector.name}
            </option>
          ))}
        </SelectField>
      )}
      <div className="grid-2">
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} required problems={problems('name')} />
        <TextField
          label="Base URL"
          type="url"
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
          hint="Replaces the document's server URL; required when it has none"
          problems={problems('baseUrl')}
        />
      </div>
      <fieldset className="kv">
        <legend>{connection ? 'Replace the credentials (leave empty to keep them)' : 'Credentials'}</legend>
        <p className="hint">Stored encrypted and never shown again. Fill what the supplier's security scheme uses.</p>
        <div className="grid-2">
          {SECRETS.map(([field, label]) => (
            <TextField
              key={field}
              label={label}
              type={field === 'username' ? 'text' : 'password'}
              autoComplete="off"
              value={credentials[field] ?? ''}
              onChange={(event) => setCredentials({ ...credentials, [field]: event.target.value })}
            />
          ))}
        </div>
      </fieldset>
      <Checkbox
        label="Active"
        checked={active}
        onChange={(event) => setActive(event.target.checked)}
        hint="An inactive connection refuses calls (CONNECTION_INACTIVE)"
      />
      <ErrorNotice error={save.error} title="The connection was not saved." />
      <div className="row-actions">
        <button type="submit" className="button button-primary" disabled={save.pending || !name.trim() || (!connection && !connectorId)}>
          {save.pending ? 'Saving…' : 'Save connection'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
