import { useState } from 'react';
import { saveDownload } from '../../../api/download';
import { useAction } from '../../../api/useLoad';
import { TextField } from '../../../components/Field';
import { ErrorNotice } from '../../../components/Status';
import { exportEvidence } from '../api/compliance';

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The responsible-gambling gate's evidence of a period (docs/compliance.md "Evidence"), downloaded as the API exports
 * it: every marketing step performed or suppressed, with its rule and the hash of the state read. Whole UTC days,
 * the last one included. The export needs the session's bearer token, so the file is fetched and handed over.
 */
export function MarketingEvidence() {
  const [from, setFrom] = useState(day(new Date(Date.now() - 30 * 86_400_000)));
  const [to, setTo] = useState(day(new Date()));
  const [downloaded, setDownloaded] = useState<string | null>(null);
  const download = useAction(async (format: 'csv' | 'json') => {
    setDownloaded(null);
    const end = new Date(`${to}T00:00:00.000Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    const { response, blob } = await exportEvidence({ from: `${from}T00:00:00.000Z`, to: end.toISOString(), format });
    saveDownload(response, blob, `marketing-evidence.${format}`);
    setDownloaded(response.headers.get('x-truncated') === 'true' ? 'Downloaded the first 10,000 rows: choose a shorter period for the rest.' : 'Downloaded.');
  });
  return (
    <section className="panel" aria-label="Marketing evidence">
      <h2>Marketing evidence</h2>
      <p>
        Every marketing step your workflows performed or the responsible-gambling gate suppressed, with the rule and a hash of the player&apos;s compliance
        state at that moment. Up to 93 days per export.
      </p>
      <TextField label="From (UTC day)" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
      <TextField label="To (UTC day, included)" type="date" value={to} onChange={(event) => setTo(event.target.value)} />
      <div className="page-actions">
        <button type="button" className="button" disabled={download.pending} onClick={() => void download.run('csv')}>
          Download evidence CSV
        </button>
        <button type="button" className="button" disabled={download.pending} onClick={() => void download.run('json')}>
          Download evidence JSON
        </button>
      </div>
      {downloaded && <p role="status">{downloaded}</p>}
      <ErrorNotice error={download.error} title="The evidence did not download." />
    </section>
  );
}
