import { useState } from 'react';
import { api, withKey } from '../../api/client';
import { failureOf, type ApiFailure } from '../../api/errors';
import { useAction } from '../../api/useLoad';
import type { components } from '../../api/schema';
import { DataKeyGate } from '../../components/DataKeyGate';
import { SelectField, TextField } from '../../components/Field';
import { KeyValueEditor } from '../../components/KeyValueEditor';
import { ErrorNotice } from '../../components/Status';
import { pretty } from '../../format';

type Connection = components['schemas']['Connection'];
interface Outcome {
  status: number;
  latencyMs: number | undefined;
  data: unknown;
  failure: ApiFailure | null;
}

/** Calls a supplier through `POST /gateway` with the tab's key, and shows what came back. */
export function TryOperation({ connections }: { connections: Connection[] }) {
  return (
    <section aria-labelledby="try-title">
      <h2 id="try-title">Try an operation</h2>
      {connections.length === 0 ? (
        <p>Add a connection first.</p>
      ) : (
        <DataKeyGate purpose="Calling a supplier through the gateway">{(key) => <TryForm apiKey={key} connections={connections} />}</DataKeyGate>
      )}
    </section>
  );
}

function TryForm({ apiKey, connections }: { apiKey: string; connections: Connection[] }) {
  const [connectionId, setConnectionId] = useState(connections[0]?.id ?? '');
  const [operation, setOperation] = useState('');
  const [params, setParams] = useState<Record<string, unknown>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const send = useAction(async () => {
    setOutcome(null);
    const { data, error, response } = await api.POST('/gateway', { headers: withKey(apiKey), body: { connectionId, operation: operation.trim(), params } });
    const body = (data ?? error) as { data?: unknown; latencyMs?: number } | undefined;
    setOutcome({
      status: response.status,
      latencyMs: body?.latencyMs,
      data: body?.data,
      failure: response.ok ? null : failureOf(response.status, error, response.headers),
    });
  });
  return (
    <form
      className="panel"
      aria-label="Call a supplier"
      onSubmit={(event) => {
        event.preventDefault();
        void send.run();
      }}
    >
      <div className="grid-2">
        <SelectField label="Connection" value={connectionId} onChange={(event) => setConnectionId(event.target.value)}>
          {connections.map((connection) => (
            <option key={connection.id} value={connection.id}>
              {connection.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Operation"
          value={operation}
          onChange={(event) => setOperation(event.target.value)}
          placeholder="kyc.status"
          hint="entity.action, in your words: kyc.status, player.create, payment.refund"
          required
        />
      </div>
      <KeyValueEditor
        legend="Parameters"
        keyLabel="Field"
        valueLabel="Value"
        value={params}
        onChange={setParams}
        hint="In your field names; the connector's map renames them."
      />
      <button type="submit" className="button button-primary" disabled={send.pending || !operation.trim()}>
        {send.pending ? 'Calling…' : 'Call the supplier'}
      </button>
      <ErrorNotice error={send.error} />
      {outcome && (
        <div role="status" className="try-outcome">
          <h3>
            {outcome.failure ? `Failed: HTTP ${outcome.status}` : `HTTP ${outcome.status}`}
            {outcome.latencyMs !== undefined && ` · ${outcome.latencyMs} ms`}
          </h3>
          {outcome.failure && <ErrorNotice error={outcome.failure} title="The gateway refused or the supplier failed." />}
          {outcome.data !== undefined && (
            <>
              <p>{outcome.failure ? 'The supplier answered:' : 'The supplier answered (in your field names):'}</p>
              <pre>{pretty(outcome.data)}</pre>
            </>
          )}
        </div>
      )}
    </form>
  );
}
