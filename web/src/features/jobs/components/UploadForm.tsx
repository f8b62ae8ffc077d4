import { useState } from 'react';
import { useAction } from '../../../api/useLoad';
import { SelectField, TextArea } from '../../../components/Field';
import { ErrorNotice } from '../../../components/Status';
import { startBatch } from '../api/jobs';

const KINDS = {
  events: {
    label: 'Events',
    limit: 5000,
    example: '[{ "externalId": "p-1", "eventType": "transaction", "data": { "type": "deposit", "amount": 5000, "currency": "EUR" } }]',
  },
  entities: { label: 'Players', limit: 1000, example: '[{ "entityType": "player", "externalId": "p-1", "data": { "first_name": "Ada", "country": "GB" } }]' },
  states: { label: 'States', limit: 1000, example: '[{ "externalId": "p-1", "key": "risk_score", "value": { "score": 12, "level": "low" } }]' },
} as const;
type Kind = keyof typeof KINDS;

/** Reads a JSON array from a file or the text box and starts the batch job. */
export function UploadForm({ onStarted }: { onStarted: (jobId: string) => void }) {
  const [kind, setKind] = useState<Kind>('events');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const start = useAction(async (items: unknown[]) => {
    const started = await startBatch(kind, items);
    onStarted(started.data.jobId);
    setText('');
  });
  const submit = () => {
    setProblem(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return setProblem('This is not valid JSON. Expected an array like the example.');
    }
    if (!Array.isArray(parsed)) return setProblem('Expected a JSON array of items, like the example.');
    void start.run(parsed);
  };
  return (
    <form
      className="panel"
      aria-label="Upload a batch"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2>Upload a batch</h2>
      <SelectField label="What the file holds" value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
        {Object.entries(KINDS).map(([value, { label, limit }]) => (
          <option key={value} value={value}>
            {label} (up to {limit.toLocaleString('en-GB')})
          </option>
        ))}
      </SelectField>
      <div className="field">
        <label htmlFor="batch-file">JSON file</label>
        <input id="batch-file" type="file" accept=".json,application/json" onChange={(event) => void event.target.files?.[0]?.text().then(setText)} />
      </div>
      <TextArea label="Or paste the items" value={text} onChange={(event) => setText(event.target.value)} rows={6} hint={`Example: ${KINDS[kind].example}`} />
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNotice error={start.error} title="The batch was not accepted." />
      <button type="submit" className="button button-primary" disabled={start.pending || text.trim() === ''}>
        {start.pending ? 'Uploading…' : 'Start the job'}
      </button>
    </form>
  );
}
