import type { Edge } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, call } from '../../api/client';
import { useLoad } from '../../api/useLoad';
import { ErrorNotice, Loading, PageHeader } from '../../components/Status';
import { fromDefinition, type StepNode } from '../workflows/graph';
import { RunDetail } from '../workflows/RunDetail';

const NO_GRAPH: { nodes: StepNode[]; edges: Edge[]; name: string | null } = { nodes: [], edges: [], name: null };

/**
 * The graph a run ran: its own version's definition, placed where the workflow's layout puts the steps. A workflow
 * deleted since (its runs stay readable) or a version no longer stored leaves the run without a graph, not unreadable.
 */
async function graphOf(workflowId: string, version: number): Promise<typeof NO_GRAPH> {
  const [workflow, saved] = await Promise.all([
    call(api.GET('/workflows-api/workflows/{id}', { params: { path: { id: workflowId } } })).catch(() => null),
    call(api.GET('/workflows-api/workflows/{id}/versions/{version}', { params: { path: { id: workflowId, version } } })).catch(() => null),
  ]);
  const definition = saved?.data.definition ?? workflow?.data;
  if (!definition) return NO_GRAPH;
  const graph = fromDefinition({ nodes: definition.nodes, edges: definition.edges, layout: workflow?.data.layout ?? {} });
  return { ...graph, name: workflow?.data.name ?? definition.name };
}

/** How long `?rerun=1` looks for the run's rerun control while the run loads. */
const RERUN_CONTROL_WAIT_MS = 10_000;

/**
 * One run, opened from the runs explorer (`/runs/:runId`): the run detail the workflow editor shows (each step's input
 * beside its output, the graph, the Temporal link, cancel and rerun), on its own page, so a run of a deleted workflow
 * opens too. `?rerun=1` (the explorer's "Rerun" on a failed run) opens the detail's "Rerun from step…" at once.
 */
export default function RunPage() {
  const { runId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const run = useLoad(() => call(api.GET('/workflows-api/runs/{runId}', { params: { path: { runId } } })), [runId]);
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
