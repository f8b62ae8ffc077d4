import { useState } from 'react';
import { Link } from 'react-router';
import { useAction, useLoad } from '../../../../api/useLoad';
import { Dialog } from '../../../../components/Dialog';
import { SelectField, TextField } from '../../../../components/Field';
import { ErrorNotice, Loading } from '../../../../components/Status';
import { formatDateTime, plural } from '../../../../format';
import { ReplayProgress, type Replay, type ReplayPreview } from './ReplayProgress';
import { previewReplay, startReplay } from '../api/runs';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Where the range starts when the runs filter names no first day: before any run of the platform. */
const EARLIEST = '2000-01-01T00:00:00.000Z';

/** `<input type="datetime-local">` reads and writes local wall time without a zone (to the second). */
const localInput = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
const instant = (local: string) => {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** What the replay would rerun, from `POST /replays/preview`: the count, by error code, and the oldest few. */
function PreviewSummary({ preview }: { preview: ReplayPreview }) {
  if (preview.total === 0) return <p role="status">No failed run to replay in this range: every event in it succeeded last, or none failed.</p>;
  return (
    <div className="replay-preview" role="status" aria-label="Replay preview">
      <p>
        <strong>{plural(preview.total, 'run')} will be replayed</strong> — one per trigger event, its latest attempt.
        {preview.total > preview.maxRuns && ` That is more than ${preview.maxRuns.toLocaleString('en-GB')} a replay reruns: narrow the range.`}
      </p>
      <p>{preview.byCode.map((group) => `${group.code} × ${group.count}`).join(' · ')}</p>
      <div className="table-wrap">
        <table className="table">
          <caption>The first {plural(preview.sample.length, 'run')}</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Started</th>
              <th scope="col">Error</th>
              <th scope="col">Failed step</th>
            </tr>
          </thead>
          <tbody>
            {preview.sample.map((run) => (
              <tr key={run.runId}>
                <td>
                  <Link to={`/runs/${run.runId}`}>{run.runId.slice(0, 12)}…</Link>
                  {run.rerunOf && ' (a rerun)'}
                </td>
                <td>{formatDateTime(run.startedAt)}</td>
                <td>
                  <code>{run.errorCode}</code>
                </td>
                <td>{run.failedNodeId ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * "Replay failed runs…", on a workflow's runs and in the runs explorer filtered to one workflow: the range (the
 * explorer's filter, or the last day), a preview of what it reruns (`POST /workflows/:id/replays/preview`), then the job
 * (`POST /workflows/:id/replays`) and its progress with its errors by code. Each trigger event is rerun once, from its
 * latest attempt, and only when that attempt failed.
 */
export function ReplayFailedRuns({ workflowId, range, onProgress }: { workflowId: string; range?: { from?: string; to?: string }; onProgress: () => void }) {
  const initial = () => ({
    from: localInput(new Date(range ? (range.from ?? EARLIEST) : Date.now() - DAY_MS)),
    to: localInput(new Date(range?.to ?? Date.now() + 60_000)),
  });
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(initial);
  const [version, setVersion] = useState<'run' | 'current'>('run');
  const [rate, setRate] = useState('5');
  const [replay, setReplay] = useState<Replay | null>(null);
  const from = instant(fields.from);
  const to = instant(fields.to);
  const preview = useLoad(
    async () => (open && !replay && from && to ? (await previewReplay(workflowId, { from, to })).data : undefined),
    [open, replay === null, from, to, workflowId],
  );
  const start = useAction(async () => {
    if (!from || !to) return;
    const body = { from, to, version, ratePerSecond: Number(rate) };
    const created = await startReplay(workflowId, body);
    setReplay(created.data);
    onProgress();
  });
  const close = () => {
    setOpen(false);
    setReplay(null);
    start.clear();
    onProgress();
  };
  const total = preview.data?.total ?? 0;
  const blocked = start.pending || preview.loading || !preview.data || total === 0 || total > preview.data.maxRuns;
  return (
    <>
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          setFields(initial());
          setOpen(true);
        }}
      >
        Replay failed runs…
      </button>
      <Dialog
        open={open}
        title="Replay failed runs"
        wide
        onClose={close}
        actions={
          replay ? undefined : (
            <>
              <button type="button" className="button" onClick={close} disabled={start.pending}>
                Cancel
              </button>
              <button type="button" className="button button-primary" onClick={() => void start.run()} disabled={blocked}>
                {start.pending ? 'Starting…' : preview.data && total > 0 ? `Replay ${plural(total, 'run')}` : 'Replay'}
              </button>
            </>
          )
        }
      >
        {replay ? (
          <ReplayProgress
            replay={replay}
            onChange={(latest) => {
              setReplay(latest);
              onProgress();
            }}
          />
        ) : (
          <>
            <p>
              Every trigger event of this workflow with a run that failed in this range runs again once, from its failed step, with its own trigger payload: its
              latest attempt is rerun (a run already rerun by hand is not repeated), and an event whose latest rerun succeeded is left alone. Steps before the
              failed one keep their results; the failed step and those after it have real effects again.
            </p>
            <TextField
              label="Runs started from"
              type="datetime-local"
              step={1}
              value={fields.from}
              onChange={(event) => setFields({ ...fields, from: event.target.value })}
            />
            <TextField
              label="Runs started before"
              type="datetime-local"
              step={1}
              value={fields.to}
              onChange={(event) => setFields({ ...fields, to: event.target.value })}
            />
            {preview.loading && !preview.data ? <Loading label="Counting the runs to replay…" /> : preview.data && <PreviewSummary preview={preview.data} />}
            <ErrorNotice error={preview.error} title="Could not count the runs." />
            <SelectField label="Version" value={version} onChange={(event) => setVersion(event.target.value as 'run' | 'current')}>
              <option value="run">Each run&apos;s own version</option>
              <option value="current">The current version</option>
            </SelectField>
            <TextField
              label="Reruns per second"
              type="number"
              min={1}
              max={50}
              value={rate}
              onChange={(event) => setRate(event.target.value)}
              hint="1 to 50: how fast the job starts reruns, to spare the supplier that just came back."
            />
            <ErrorNotice error={start.error} title="Not replayed." />
          </>
        )}
      </Dialog>
    </>
  );
}
