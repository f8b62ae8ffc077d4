import { useEffect, useState } from 'react';
import { api, call } from '../../api/client';
import { asFailure, type ApiFailure } from '../../api/errors';
import type { components } from '../../api/schema';
import { ConfirmDialog } from '../../components/Dialog';
import { SelectField } from '../../components/Field';
import { ErrorNotice, StatusBadge } from '../../components/Status';
import { formatDateTime } from '../../format';

type Replay = components['schemas']['WorkflowReplay'];

/** Where a replay's range starts when the filter names no first day: before any run of the platform. */
const EARLIEST = '2000-01-01T00:00:00.000Z';

/**
 * "Replay failed runs": offered when the explorer shows one workflow's failed runs. Starts a replay job
 * (`POST /workflows/:id/replays`) over the filter's date range — every failed run in it is rerun from its failed
 * step — and follows its progress (`GET /replays/:id`) until it ends.
 */
export function ReplayFailedRuns({ workflowId, range, onProgress }: { workflowId: string; range: { from?: string; to?: string }; onProgress: () => void }) {
  const [open, setOpen] = useState(false);
  const [version, setVersion] = useState<'run' | 'current'>('run');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiFailure | undefined>();
  const [replay, setReplay] = useState<Replay | null>(null);
  const from = range.from ?? EARLIEST;
  const [to, setTo] = useState(() => range.to ?? new Date().toISOString());

  const running = replay?.status === 'running';
  useEffect(() => {
    if (!replay || !running) return;
    const timer = setInterval(() => {
      call(api.GET('/workflows-api/replays/{replayId}', { params: { path: { replayId: replay.id } } })).then(
        (answer) => {
          setReplay(answer.data);
          onProgress();
        },
        (failure: unknown) => setError(asFailure(failure)),
      );
    }, 1000);
    return () => clearInterval(timer);
  }, [replay, running, onProgress]);

  const start = async () => {
    setPending(true);
    setError(undefined);
    try {
      const answer = await call(
        api.POST('/workflows-api/workflows/{id}/replays', { params: { path: { id: workflowId } }, body: { from, to, version, ratePerSecond: 5 } }),
      );
      setReplay(answer.data);
      setOpen(false);
      onProgress();
    } catch (failure) {
      setError(asFailure(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="runs-replay">
      <button
        type="button"
        className="button"
        disabled={running}
        onClick={() => {
          setTo(range.to ?? new Date().toISOString());
          setError(undefined);
          setOpen(true);
        }}
      >
        Replay failed runs
      </button>
      {replay && (
        <div className="runs-replay-progress" role="status" aria-live="polite" aria-label="Replay progress">
          <StatusBadge status={replay.status} />{' '}
          <progress max={Math.max(1, replay.total)} value={replay.succeeded + replay.failed} aria-label="Reruns finished" />{' '}
          <span>
            {replay.started} of {replay.total} rerun{replay.total === 1 ? '' : 's'} started · {replay.succeeded} succeeded · {replay.failed} failed
          </span>
        </div>
      )}
      {!open && <ErrorNotice error={error} />}
      <ConfirmDialog
        open={open}
        title="Replay failed runs?"
        confirmLabel="Replay"
        pending={pending}
        error={error}
        onConfirm={() => void start()}
        onCancel={() => setOpen(false)}
      >
        <p>
          Every failed run of this workflow started between {from === EARLIEST ? 'its first run' : formatDateTime(from)} and {formatDateTime(to)} runs again
          from its failed step, with its trigger payload, five a second. Steps before it keep their recorded results; the failed step and the steps after it
          have real effects again.
        </p>
        <SelectField label="Definition to run" value={version} onChange={(event) => setVersion(event.target.value as 'run' | 'current')}>
          <option value="run">The version each run ran</option>
          <option value="current">The current version</option>
        </SelectField>
      </ConfirmDialog>
    </div>
  );
}
