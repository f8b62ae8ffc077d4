import { useState } from 'react';
import { failureOf, type ApiFailure } from '../../../api/errors';
import { useAction } from '../../../api/useLoad';
import type { components } from '../../../api/schema';
import { useCanManage } from '../../../auth/session';
import { SelectField, TextField } from '../../../components/Field';
import { KeyValueEditor } from '../../../components/KeyValueEditor';
import { ErrorNotice } from '../../../components/Status';
import { pretty } from '../../../format';
import { callGateway } from '../api/connections';

type Connection = components['schemas']['Connection'];
interface Outcome {
  status: number;
  latencyMs: number | undefined;
  data: unknown;
  failure: ApiFailure | null;
}

/**
 * Calls a supplier through `POST /gateway` (with the session's dashboard credential), and shows what came back. A
 * call may change things at the supplier, so it is for the Owner and Admins.
 */
export function TryOperation({ connections }: { connections: Connection[] }) {
  const manage = useCanManage();
  return (
    <section aria-labelledby="try-title">
      <h2 id="try-title">Try an operation</h2>
      {!manage ? (
        <p>Only the Owner or an Admin can call suppliers from here.</p>
      ) : connections.length === 0 ? (
        <p>Add a connection first.</p>
      ) : (
        <TryForm connections={connections} />
      )}
    </section>
  );
}

function TryForm({ connections }: { connections: Connection[] }) {
  const [connectionId, setConnectionId] = useState(connections[0]?.id ?? '');
  const [operation, setOperation] = useState('');
  const [params, setParams] = useState<Record<string, unknown>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const send = useAction(async () => {
    setOutcome(null);
    const { data, error, response } = await callGateway({ connectionId, operation: operation.trim(), params });
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
