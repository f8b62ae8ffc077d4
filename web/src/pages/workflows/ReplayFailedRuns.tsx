import { useEffect, useRef, useState } from 'react';
import { api, call } from '../../api/client';
import { useAction } from '../../api/useLoad';
import type { components } from '../../api/schema';
import { Dialog } from '../../components/Dialog';
import { SelectField, TextField } from '../../components/Field';
import { ErrorNotice, StatusBadge } from '../../components/Status';

type Replay = components['schemas']['WorkflowReplay'];

const POLL_MS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `<input type="datetime-local">` reads and writes local wall time without a zone. */
const localInput = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** How far a replay is, polled from `GET /replays/:replayId` until it has ended. */
function ReplayProgress({ replay, onChange }: { replay: Replay; onChange: (replay: Replay) => void }) {
  const running = replay.status === 'running';
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      void call(api.GET('/workflows-api/replays/{replayId}', { params: { path: { replayId: replay.id } } })).then(
        (latest) => changed.current(latest.data),
        () => undefined,
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, replay.id]);
  const done = replay.succeeded + replay.failed;
  return (
    <div className="replay-progress">
      <p>
        Replay <code>{replay.id}</code> <StatusBadge status={replay.status} />
      </p>
      <progress max={Math.max(replay.total, 1)} value={Math.min(done, Math.max(replay.total, 1))} aria-label={`Replayed ${done} of ${replay.total}`} />
      <p aria-live="polite">
        {done} of {replay.total} replayed · {replay.started} started · {replay.succeeded} succeeded · {replay.failed} failed
      </p>
    </div>
  );
}

/**
 * "Replay failed runs…" on an automation's runs (`POST /workflows-api/workflows/:id/replays`): every run that failed in a
 * time range is rerun from its failed step, as a job with its own rate; the dialog then shows its progress until done.
 */
export function ReplayFailedRuns({ workflowId, onProgress }: { workflowId: string; onProgress: () => void }) {
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState(() => localInput(new Date(Date.now() - DAY_MS)));
  const [to, setTo] = useState(() => localInput(new Date(Date.now() + 60_000)));
  const [version, setVersion] = useState<'run' | 'current'>('run');
  const [rate, setRate] = useState('5');
  const [replay, setReplay] = useState<Replay | null>(null);
  const start = useAction(async () => {
    const body = { from: new Date(from).toISOString(), to: new Date(to).toISOString(), version, ratePerSecond: Number(rate) };
    const created = await call(api.POST('/workflows-api/workflows/{id}/replays', { params: { path: { id: workflowId } }, body }));
    setReplay(created.data);
  });
  const close = () => {
    setOpen(false);
    setReplay(null);
    start.clear();
    onProgress();
  };
  return (
    <>
      <button type="button" className="button button-small" onClick={() => setOpen(true)}>
        Replay failed runs…
      </button>
      <Dialog
        open={open}
        title="Replay failed runs"
        onClose={close}
        actions={
          replay ? undefined : (
            <>
              <button type="button" className="button" onClick={close} disabled={start.pending}>
                Cancel
              </button>
              <button type="button" className="button button-primary" onClick={() => void start.run()} disabled={start.pending || !from || !to}>
                {start.pending ? 'Starting…' : 'Replay'}
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
              Every run of this workflow that failed and started in this range is rerun from its failed step, with its own trigger payload, a few a second. Each
              failed run is rerun once; the reruns have real effects.
            </p>
            <TextField label="Runs started from" type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} />
            <TextField label="Runs started before" type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} />
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
