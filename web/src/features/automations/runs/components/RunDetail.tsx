import { ReactFlowProvider, type Edge } from '@xyflow/react';
import { useEffect, useMemo, useRef } from 'react';
import { useCanManage } from '../../../../auth/session';
import { ErrorNotice, Loading, StatusBadge } from '../../../../components/Status';
import { temporalRunUrl } from '../../../../config';
import { formatDateTime, formatDuration, pretty } from '../../../../format';
import { startTemporalCodecSession } from '../../../../temporalCodec';
import { AnswerApproval } from './AnswerApproval';
import { CancelRun } from './CancelRun';
import { Canvas } from '../../editor/components/Canvas';
import type { StepNode } from '../../editor/components/graph';
import { RunStatusContext } from '../../editor/components/problems';
import { RunSuppressionContext } from '../../editor/components/StepView';
import { RerunFromStep, RerunOf } from './RerunFromStep';
import { LiveProgress, liveStatus } from './LiveStep';
import { RunSteps } from './RunSteps';
import { useRun } from '../api/runs';

/**
 * One run (`/workflows-api/runs/:id`): each node's status, input, output, error and timing, the graph coloured by it,
 * and its Temporal history; the agent's task behind it, if any; the question of an approval it waits in; "Cancel run"
 * while it runs (Owner and Admins). While it runs it is read again every 1.5 s: its steps so far come from the live
 * workflow (the step in flight with what it waits for, until when, or its retry), no reload needed.
 */
export function RunDetail({ runId, nodes, edges, onChanged }: { runId: string; nodes: StepNode[]; edges: Edge[]; onChanged: () => void }) {
  const manage = useCanManage();
  const run = useRun(runId);
  const data = run.data?.data;
  const running = data?.status === 'running';
  const { reload } = run;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, 1500);
    return () => clearInterval(timer);
  }, [running, reload]);
  // The page around is told when the run's status changes (it ended), not on every read: each read of a running run
  // asks its live workflow, and the list beside it keeps its own pace.
  const status = data?.status;
  const seen = useRef(status);
  useEffect(() => {
    if (seen.current !== undefined && status !== seen.current) onChanged();
    seen.current = status;
  }, [status, onChanged]);
  const statuses = useMemo(() => new Map((data?.nodes ?? []).map((node) => [node.id, liveStatus(node)])), [data]);
  const suppressions = useMemo(
    () => new Map((data?.nodes ?? []).flatMap((node) => (node.suppressed ? [[node.id, node.suppressed.rule] as const] : []))),
    [data],
  );
  const temporal = temporalRunUrl(data?.temporalWorkflowId);

  return (
    <section className="panel" aria-labelledby="run-title">
      <h2 id="run-title">
        Run <code>{runId}</code> {data && <StatusBadge status={data.status} />}
      </h2>
      <ErrorNotice error={run.error} onRetry={run.reload} />
      {!data && !run.error && <Loading />}
      {data && (
        <>
          <p>
            {data.source} run of version {data.workflowVersion} · started {formatDateTime(data.startedAt)} ·{' '}
            {running ? 'still running' : `took ${formatDuration(data.durationMs)}`}
            {temporal && (
              <>
                {' · '}
                <a href={temporal} target="_blank" rel="noreferrer" onClick={() => void startTemporalCodecSession()}>
                  Open in the Temporal Web UI
                </a>
              </>
            )}
          </p>
          {running && <LiveProgress live={data.live} />}
          <RerunOf run={data} />
          {!running && manage && (
            <div className="row-actions">
              <RerunFromStep run={data} nodes={nodes} />
            </div>
          )}
          {data.task && (
            <p className="run-task">
              Agent task <code>{data.task.id}</code> · <StatusBadge status={data.task.status} />
            </p>
          )}
          {running && data.awaitingInput && (
            <AnswerApproval
              runId={runId}
              awaiting={data.awaitingInput}
              canAnswer={manage}
              onAnswered={() => {
                reload();
                onChanged();
              }}
            />
          )}
          {running && manage && (
            <div className="row-actions">
              <CancelRun
                runId={runId}
                agentTask={data.task !== undefined}
                onCancelled={() => {
                  reload();
                  onChanged();
                }}
              />
            </div>
          )}
          {data.error && (
            <p className="notice notice-error">
              <strong>{data.error.code}</strong>: {data.error.message}
              {data.error.nodeId && ` (step ${data.error.nodeId})`}
            </p>
          )}
          <RunStatusContext.Provider value={statuses}>
            <RunSuppressionContext.Provider value={suppressions}>
              <div className="run-canvas" style={{ height: 260 }}>
                <ReactFlowProvider>
                  <Canvas
                    nodes={nodes.map((node) => ({ ...node, selected: false }))}
                    edges={edges}
                    editable={false}
                    onNodesChange={() => undefined}
                    onEdgesChange={() => undefined}
                    setEdges={() => undefined}
                    onSelect={() => undefined}
                    confirmRemoval={async () => false}
                  />
                </ReactFlowProvider>
              </div>
            </RunSuppressionContext.Provider>
          </RunStatusContext.Provider>
          <h3>Input</h3>
          <pre>{pretty(data.input)}</pre>
          <h3>Steps</h3>
          <RunSteps runId={data.id} nodes={data.nodes} triggerInput={data.input} live={running} />
          {data.status !== 'running' && (
            <>
              <h3>Output</h3>
              <pre>{pretty(data.output)}</pre>
            </>
          )}
        </>
      )}
    </section>
  );
}
