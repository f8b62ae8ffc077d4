import { Link } from 'react-router';
import type { components } from '../../../../api/schema';
import { StatusBadge } from '../../../../components/Status';
import { temporalRunUrl } from '../../../../config';
import { formatDateTime, formatDuration } from '../../../../format';
import { startTemporalCodecSession } from '../../../../temporalCodec';
import { LiveSummary } from './LiveStep';
import { SuppressedBadge } from './SuppressedBadge';

export type RunSummary = components['schemas']['WorkflowRunSummary'];

/**
 * A page of runs: each row opens the run (a step the gate suppressed is named beside the run's status), a failed one also offers its rerun (Owner and Admins), and its Temporal
 * history. On a phone each row becomes a card (runs.css), its cells labelled by `data-label`.
 */
export function RunsTable({ runs, count, canRerun }: { runs: RunSummary[]; count: number; canRerun: boolean }) {
  return (
    <div className="table-wrap runs-table">
      <table>
        <caption>
          {count} run{count === 1 ? '' : 's'}, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Workflow</th>
            <th scope="col">Status</th>
            <th scope="col">Source</th>
            <th scope="col">Players</th>
            <th scope="col" className="num">
              Duration
            </th>
            <th scope="col">Run</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const temporal = temporalRunUrl(run.temporalWorkflowId);
            return (
              <tr key={run.id} data-run-id={run.id}>
                <td data-label="Started">{formatDateTime(run.startedAt)}</td>
                <td data-label="Workflow">
                  {run.workflowName ?? run.workflowId} <span className="hint">v{run.workflowVersion}</span>
                  {run.rerunOf && <span className="hint"> · rerun</span>}
                </td>
                <td data-label="Status">
                  <StatusBadge status={run.status} />
                  {run.suppressed?.map((step) => (
                    <span key={step.nodeId} className="run-suppressed">
                      {' '}
                      <SuppressedBadge rule={step.rule} /> <span className="hint">at {step.nodeId}</span>
                    </span>
                  ))}
                  {run.error && (
                    <span className="hint">
                      {' '}
                      {run.error.code}
                      {run.error.nodeId && ` at ${run.error.nodeId}`}
                    </span>
                  )}
                  {run.status === 'running' && <LiveSummary live={run.live} />}
                </td>
                <td data-label="Source">{run.source}</td>
                <td data-label="Players">{run.subjectExternalIds.length > 0 ? run.subjectExternalIds.join(', ') : '—'}</td>
                <td data-label="Duration" className="num">
                  {run.status === 'running' ? `${formatDuration(Date.now() - Date.parse(run.startedAt))} so far` : formatDuration(run.durationMs)}
                </td>
                <td data-label="Run">
                  <span className="row-actions">
                    <Link className="button button-small" to={`/runs/${run.id}`} aria-label={`Open run ${run.id}`}>
                      Open
                    </Link>
                    {canRerun && run.status === 'failed' && (
                      <Link className="button button-small" to={`/runs/${run.id}?rerun=1`} aria-label={`Rerun run ${run.id}`}>
                        Rerun
                      </Link>
                    )}
                    {temporal && (
                      <a
                        href={temporal}
                        target="_blank"
                        rel="noreferrer"
                        onClick={() => void startTemporalCodecSession()}
                        aria-label={`Run ${run.id} in the Temporal Web UI`}
                      >
                        Temporal
                      </a>
                    )}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
