import type { Edge } from '@xyflow/react';
import { useEffect } from 'react';
import { useCanManage } from '../../../../auth/session';
import { EmptyState, LoadStatus, StatusBadge } from '../../../../components/Status';
import { formatDateTime, formatDuration, plural } from '../../../../format';
import type { StepNode, Workflow } from '../../editor/components/graph';
import { LiveSummary } from './LiveStep';
import { ReplayFailedRuns } from './ReplayFailedRuns';
import { RunDetail } from './RunDetail';
import { SkippedTriggers } from './SkippedTriggers';
import { useAutomationRuns } from '../api/runs';

/** A workflow's runs, newest first (`/workflows/:id/runs`), refreshed while any is running; one opened in full. */
export function RunsPanel({
  workflow,
  nodes,
  edges,
  selected,
  onSelect,
}: {
  workflow: Workflow;
  nodes: StepNode[];
  edges: Edge[];
  selected: string | null;
  onSelect: (runId: string) => void;
}) {
  const runs = useAutomationRuns(workflow.id, 50);
  const list = runs.data?.data ?? [];
  const manage = useCanManage();
  const live = list.some((run) => run.status === 'running');
  useEffect(() => {
    const timer = setInterval(runs.reload, live ? 2000 : 10000);
    return () => clearInterval(timer);
  }, [live, runs.reload]);

  return (
    <>
      <LoadStatus load={runs} />
      {manage && (
        <div className="row-actions">
          <ReplayFailedRuns workflowId={workflow.id} onProgress={runs.reload} />
        </div>
      )}
      {runs.data && list.length === 0 && (
        <EmptyState title="No runs yet">
          <p>Runs appear here when the trigger fires, or when you start a test run from the Design tab.</p>
        </EmptyState>
      )}
      {selected && <RunDetail runId={selected} nodes={nodes} edges={edges} onChanged={runs.reload} />}
      <SkippedTriggers workflowId={workflow.id} />
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption>{plural(runs.data?.count ?? list.length, 'run')}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Source</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Duration
                </th>
                <th scope="col">Version</th>
                <th scope="col">Run</th>
              </tr>
            </thead>
            <tbody>
              {list.map((run) => (
                <tr key={run.id} className={run.id === selected ? 'selected' : undefined}>
                  <td>{formatDateTime(run.startedAt)}</td>
                  <td>
                    {run.source}
                    {run.task && <span className="hint"> · agent task</span>}
                    {run.rerunOf && <span className="hint"> · rerun</span>}
                  </td>
                  <td>
                    <StatusBadge status={run.status} />
                    {run.error && <span className="hint"> {run.error.code}</span>}
                    {run.status === 'running' && <LiveSummary live={run.live} />}
                  </td>
                  <td className="num">
                    {run.status === 'running' ? `${formatDuration(Date.now() - Date.parse(run.startedAt))} so far` : formatDuration(run.durationMs)}
                  </td>
                  <td>{run.workflowVersion}</td>
                  <td>
                    <button
                      type="button"
                      className="button button-small"
                      onClick={() => onSelect(run.id)}
                      aria-current={run.id === selected ? 'true' : undefined}
                      aria-label={`Open run ${run.id}`}
                    >
                      Open
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
