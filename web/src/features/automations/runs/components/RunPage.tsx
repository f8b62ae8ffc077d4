import type { Edge } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { useLoad } from '../../../../api/useLoad';
import { ErrorNotice, Loading, PageHeader } from '../../../../components/Status';
import { fromDefinition, type StepNode } from '../../editor/components/graph';
import { RunDetail } from './RunDetail';
import type { StartedRunState } from './startedRun';
import { getAutomation, getVersion } from '../../api/automations';
import { useRun } from '../api/runs';

const NO_GRAPH: { nodes: StepNode[]; edges: Edge[]; name: string | null } = { nodes: [], edges: [], name: null };

/**
 * The graph a run ran: its own version's definition, placed where the workflow's layout puts the steps. A workflow
 * deleted since (its runs stay readable) or a version no longer stored leaves the run without a graph, not unreadable.
 */
async function graphOf(workflowId: string, version: number): Promise<typeof NO_GRAPH> {
  const [workflow, saved] = await Promise.all([getAutomation(workflowId).catch(() => null), getVersion(workflowId, version).catch(() => null)]);
  const definition = saved?.data.definition ?? workflow?.data;
  if (!definition) return NO_GRAPH;
  const graph = fromDefinition({ nodes: definition.nodes, edges: definition.edges, layout: workflow?.data.layout ?? {} });
  return { ...graph, name: workflow?.data.name ?? definition.name };
}

/** How long `?rerun=1` looks for the run's rerun control while the run loads. */
const RERUN_CONTROL_WAIT_MS = 10_000;
/** How long a run just started (a rerun) is looked for before "No such run." is believed, and how often. */
const STARTED_WAIT_MS = 30_000;
const STARTED_POLL_MS = 500;

/**
 * One run, opened from the runs explorer (`/runs/:runId`): the run detail the workflow editor shows (each step's input
 * beside its output, the graph, the Temporal link, cancel and rerun), on its own page, so a run of a deleted workflow
 * opens too. `?rerun=1` (the explorer's "Rerun" on a failed run) opens the detail's "Rerun from step…" at once.
 */
export default function RunPage() {
  const { runId = '' } = useParams();
  // A page of its own per run: going from a run to its rerun never shows the first run's record under the second's id.
  return <RunView key={runId} runId={runId} />;
}

/**
 * A run just started (its rerun control hands `StartedRunState` on) may not be recorded yet when its page opens:
 * its 404 is read again every half second, showing "Starting the run…", for up to 30 s before it is believed.
 */
function useStartedRun(runId: string) {
  const started = (useLocation().state as StartedRunState | null)?.startedAt;
  const run = useRun(runId);
  const waiting = run.error?.status === 404 && started !== undefined && Date.now() - started < STARTED_WAIT_MS;
  const { reload } = run;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(reload, STARTED_POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, reload, run.error]);
  return { run, waiting };
}

function RunView({ runId }: { runId: string }) {
  const [search, setSearch] = useSearchParams();
  const { run, waiting } = useStartedRun(runId);
  const data = run.data?.data;
  const graph = useLoad(async () => (data ? graphOf(data.workflowId, data.workflowVersion) : null), [data?.workflowId, data?.workflowVersion]);
  const detail = useRef<HTMLDivElement>(null);
  const wantsRerun = search.get('rerun') === '1';

  useEffect(() => {
    if (!wantsRerun || !graph.data) return;
    // The control belongs to the run detail, which loads the run itself: look for it until it is there.
    const deadline = Date.now() + RERUN_CONTROL_WAIT_MS;
    const timer = setInterval(() => {
      const control = [...(detail.current?.querySelectorAll('button') ?? [])].find((button) => button.textContent === 'Rerun from step…');
      if (!control && Date.now() < deadline) return;
      clearInterval(timer);
      control?.click();
      setSearch({}, { replace: true });
    }, 150);
    return () => clearInterval(timer);
  }, [wantsRerun, graph.data, setSearch]);

  if (waiting) return <Loading label="Starting the run…" />;
  if (run.error) {
    return (
      <>
        <p>
          <Link to="/runs">← All runs</Link>
        </p>
        <ErrorNotice
          error={run.error}
          title={run.error.status === 404 ? 'No such run.' : undefined}
          onRetry={run.error.status === 404 ? undefined : run.reload}
        />
      </>
    );
  }
  if (!data || !graph.data) return <Loading />;
  return (
    <>
      <p>
        <Link to="/runs">← All runs</Link> · <Link to={`/workflows/${data.workflowId}`}>Open the workflow</Link>
      </p>
      <PageHeader title={graph.data.name ?? 'Run'} lead={`A run of version ${data.workflowVersion}.`} />
      <div ref={detail}>
        <RunDetail runId={runId} nodes={graph.data.nodes} edges={graph.data.edges} onChanged={run.reload} />
      </div>
    </>
  );
}
