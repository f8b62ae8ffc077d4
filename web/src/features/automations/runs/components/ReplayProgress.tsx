import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../../api/schema';
import { StatusBadge } from '../../../../components/Status';
import { plural } from '../../../../format';
import { getReplay } from '../api/runs';

export type Replay = components['schemas']['WorkflowReplay'];
export type ReplayPreview = components['schemas']['WorkflowReplayPreview'];

const POLL_MS = 1000;

/** A replay's failed reruns by error code, each code with links to its first reruns (`GET /replays/:id` lists 5 a code). */
export function ReplayErrors({ errors }: { errors: Replay['errors'] }) {
  if (errors.length === 0) return null;
  return (
    <div className="replay-errors">
      <h3>Errors by code</h3>
      <ul>
        {errors.map((group) => (
          <li key={group.code}>
            <code>{group.code}</code> · {plural(group.count, 'rerun')}
            {group.runIds.length > 0 && (
              <>
                {' '}
                ·{' '}
                {group.runIds.map((runId, index) => (
                  <span key={runId}>
                    {index > 0 && ', '}
                    <Link to={`/runs/${runId}`} aria-label={`Rerun ${runId} (${group.code})`}>
                      {runId.slice(0, 12)}…
                    </Link>
                  </span>
                ))}
                {group.count > group.runIds.length && ` and ${group.count - group.runIds.length} more`}
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** How far a replay is, polled from `GET /replays/:replayId` until it has ended, then what failed and why. */
export function ReplayProgress({ replay, onChange }: { replay: Replay; onChange: (replay: Replay) => void }) {
  const running = replay.status === 'running';
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      void getReplay(replay.id).then(
        (latest) => changed.current(latest.data),
        () => undefined,
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, replay.id]);
  const done = replay.succeeded + replay.failed;
  return (
    <div className="replay-progress" role="status" aria-label="Replay progress">
      <p>
        Replay <code>{replay.id}</code> <StatusBadge status={replay.status} />
      </p>
      <progress max={Math.max(replay.total, 1)} value={Math.min(done, Math.max(replay.total, 1))} aria-label={`Replayed ${done} of ${replay.total}`} />
      <p aria-live="polite">
        {done} of {replay.total} replayed · {replay.started} started · {replay.succeeded} succeeded · {replay.failed} failed
      </p>
      <ReplayErrors errors={replay.errors} />
    </div>
  );
}
