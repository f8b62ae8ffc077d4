import { useState } from 'react';
import { LoadStatus } from '../../../../components/Status';
import { formatDateTime } from '../../../../format';
import { useSkippedTriggers } from '../api/runs';

type Reason = 'filter_failed' | 'key_failed' | 'dispatch_failed' | 'throttled' | 'debounced' | 'busy' | 'queue_full' | 'replaced' | 'cancelled';

/** The dispatcher's reasons: an expression failed, or the event was set aside. */
const FAILED: Partial<Record<Reason, string>> = {
  filter_failed: 'Trigger filter failed',
  key_failed: 'Run-control key failed',
  dispatch_failed: 'Event set aside',
};

/** Run control's reasons: the rule held the trigger back (docs/workflows.md "Skipped triggers"). */
const HELD: Partial<Record<Reason, string>> = {
  throttled: 'Throttled',
  debounced: 'Debounced (a later event took its place)',
  busy: 'Busy (a run for the key was going)',
  queue_full: "Key's queue full",
  replaced: 'Replaced in the queue',
  cancelled: 'Dropped by a cancelling event',
};

const REASONS = { ...FAILED, ...HELD } as Record<Reason, string>;

const options = (labels: Partial<Record<Reason, string>>) =>
  (Object.keys(labels) as Reason[]).map((key) => (
    <option key={key} value={key}>
      {labels[key]}
    </option>
  ));

/**
 * Events the workflow heard and started no run for (`GET /workflows-api/workflows/:id/skipped-triggers`): a filter or
 * key that failed for that event, an event set aside after its dispatch failed three times, or a trigger run control
 * held back (throttled, debounced, busy…) — each with its reason, key and the expression's message or the rule, so a
 * designer can see why a run is missing, filtered by reason. Folded until opened.
 */
export function SkippedTriggers({ workflowId }: { workflowId: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<Reason | ''>('');
  const skipped = useSkippedTriggers(workflowId, open, reason);
  const list = skipped.data?.data ?? [];
  return (
    <details className="skipped-triggers" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Skipped triggers</summary>
      <p className="hint">
        Events this workflow heard and did not run for — a filter or key that failed, or run control holding them back (up to 60 of those a minute are kept; the
        rest are only counted) — newest first, kept for 7 days.
      </p>
      <label>
        Reason{' '}
        <select value={reason} onChange={(event) => setReason(event.target.value as Reason | '')}>
          <option value="">Any</option>
          <optgroup label="Failed">{options(FAILED)}</optgroup>
          <optgroup label="Held back by run control">{options(HELD)}</optgroup>
        </select>
      </label>
      <LoadStatus load={skipped} />
      {skipped.data && list.length === 0 && (
        <p>
          {reason
            ? `None for “${REASONS[reason]}” in the last 7 days.`
            : 'None: every event this workflow heard either started a run or did not pass its filter.'}
        </p>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          {/* Focusable: on a phone the table scrolls sideways inside its box, by keyboard too. */}
          <table tabIndex={0}>
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
                    {skip.key !== null && <span className="hint"> · key {skip.key === '' ? '(none)' : skip.key}</span>}
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
