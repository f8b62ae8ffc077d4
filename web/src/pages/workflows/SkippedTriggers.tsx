import { useState } from 'react';
import { api, call } from '../../api/client';
import { useLoad } from '../../api/useLoad';
import { LoadStatus } from '../../components/Status';
import { formatDateTime } from '../../format';

type Reason = 'filter_failed' | 'key_failed' | 'dispatch_failed';

const REASONS: Record<Reason, string> = {
  filter_failed: 'Trigger filter failed',
  key_failed: 'Run-control key failed',
  dispatch_failed: 'Event set aside',
};

/**
 * Events the workflow heard and started no run for (`GET /workflows-api/workflows/:id/skipped-triggers`): a filter or
 * key that failed for that event, or an event set aside after its dispatch failed three times — each with its reason
 * and the expression's own message, so a designer can see why a run is missing. Folded until opened.
 */
export function SkippedTriggers({ workflowId }: { workflowId: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<Reason | ''>('');
  const skipped = useLoad(
    () =>
      open
        ? call(
            api.GET('/workflows-api/workflows/{id}/skipped-triggers', {
              params: { path: { id: workflowId }, query: { limit: 20, ...(reason ? { reason } : {}) } },
            }),
          )
        : Promise.resolve(null),
    [workflowId, open, reason],
  );
  const list = skipped.data?.data ?? [];
  return (
    <details className="skipped-triggers" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Skipped triggers</summary>
      <p className="hint">Events this workflow heard and did not run for, newest first, kept for 7 days.</p>
      <label>
        Reason{' '}
        <select value={reason} onChange={(event) => setReason(event.target.value as Reason | '')}>
          <option value="">Any</option>
          {(Object.keys(REASONS) as Reason[]).map((key) => (
            <option key={key} value={key}>
              {REASONS[key]}
            </option>
          ))}
        </select>
      </label>
      <LoadStatus load={skipped} />
      {skipped.data && list.length === 0 && <p>None: every event this workflow heard either started a run or did not pass its filter.</p>}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>The latest {list.length} skipped triggers</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Reason</th>
                <th scope="col">Event</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {list.map((skip) => (
                <tr key={skip.id}>
                  <td>{formatDateTime(skip.created_at)}</td>
                  <td>
                    {REASONS[skip.reason]}
                    <span className="hint"> · {skip.code}</span>
                  </td>
                  <td>
                    {skip.event}
                    <span className="hint"> · version {skip.workflow_version}</span>
                  </td>
                  <td>{skip.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}
