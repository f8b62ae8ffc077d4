import { useEffect } from 'react';
import { useDispatchLag } from '../api/runs';

/** Past this many seconds of waiting the notice shows: a dispatch at its usual pace waits well under one. */
const SHOWN_FROM_SECONDS = 5;
const REFRESH_MS = 10_000;

/**
 * How far the organisation's events wait to reach its workflows (`GET /workflows-api/event-dispatch`), shown only when
 * the oldest has waited more than a few seconds: past its share of run starts or of the expression sandbox, an
 * organisation's events wait in order and none is lost, and this says so rather than leaving runs to seem missing.
 */
export function DispatchLag() {
  const lag = useDispatchLag();
  useEffect(() => {
    const timer = setInterval(lag.reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [lag.reload]);
  const data = lag.data?.data;
  if (!data || data.oldest_seconds <= SHOWN_FROM_SECONDS) return null;
  const events = data.pending >= 100_000 ? 'Over 100,000 events' : `${data.pending.toLocaleString('en-GB')} ${data.pending === 1 ? 'event' : 'events'}`;
  return (
    <div className="notice notice-warn" role="status">
      <p>
        {events} {data.pending === 1 ? 'is' : 'are'} waiting to reach your workflows; the oldest for {Math.round(data.oldest_seconds)} s.
      </p>
      <p>
        Your workflows are starting runs (or running filters) faster than your organisation’s share allows. Nothing is lost: the events are kept in order and
        their runs start as the share refills.
      </p>
    </div>
  );
}
