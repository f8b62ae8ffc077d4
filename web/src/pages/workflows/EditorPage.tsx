import { useEdgesState, useNodesState, type Edge } from '@xyflow/react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, call } from '../../api/client';
import { useLoad } from '../../api/useLoad';
import { useCanManage } from '../../auth/session';
import { ErrorNotice, Loading, PageHeader, StatusBadge } from '../../components/Status';
import { Editor } from './Editor';
import { fromDefinition, type Meta, type StepNode, type Workflow } from './graph';
import { RECIPES } from './recipes';
import { RunsPanel } from './RunsPanel';

/**
 * A workflow: loads it (or a recipe for a new one) and hosts the editor and its runs. `?run=<id>` opens
 * a run in the Runs tab.
 */
export default function EditorPage() {
  const { id } = useParams();
  const [search, setSearch] = useSearchParams();
  const manage = useCanManage();
  const navigate = useNavigate();
  const recipe = RECIPES.find((candidate) => candidate.id === (search.get('recipe') ?? 'blank')) ?? RECIPES[RECIPES.length - 1]!;
  const loaded = useLoad(async () => (id ? (await call(api.GET('/workflows-api/workflows/{id}', { params: { path: { id } } }))).data : null), [id]);
  const [meta, setMeta] = useState<Meta | null>(null);
  const [nodes, setNodes, onNodesChange] = useNodesState<StepNode>([]);
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge>([]);
  const [saved, setSaved] = useState<Workflow | null>(null);
  const tab = search.get('run') !== null || search.get('tab') === 'runs' ? 'runs' : 'design';

  const reset = (definition: Workflow | (typeof recipe)['definition']) => {
    const graph = fromDefinition(definition);
    setMeta({
      name: definition.name,
      description: definition.description ?? '',
      active: definition.active ?? true,
      mcp_exposed: definition.mcp_exposed ?? false,
    });
    setNodes(graph.nodes);
    setEdges(graph.edges);
  };
  useEffect(() => {
    if (loaded.loading) return;
    if (id && loaded.data) {
      setSaved(loaded.data);
      reset(loaded.data);
    } else if (!id) {
      setSaved(null);
      reset(recipe.definition);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded.data, loaded.loading, id, recipe.id]);

  const setTab = (next: 'design' | 'runs') => setSearch(next === 'runs' ? { tab: 'runs' } : {}, { replace: true });

  if (id && loaded.error) {
    return (
      <>
        <p>
          <Link to="/workflows">← All workflows</Link>
        </p>
        <ErrorNotice
          error={loaded.error}
          title={loaded.error.status === 404 ? 'No such workflow.' : undefined}
          onRetry={loaded.error.status === 404 ? undefined : loaded.reload}
        />
      </>
    );
  }
  if (!meta || (id && !saved)) return <Loading />;

  return (
    <>
      <p>
        <Link to="/workflows">← All workflows</Link>
      </p>
      <PageHeader
        title={saved ? saved.name : 'New workflow'}
        lead={
          saved ? (
            <>
              Version {saved.version} · <StatusBadge status={saved.active ? 'active' : 'inactive'} />
              {saved.mcp_exposed && (
                <>
                  {' '}
                  · MCP tool <code>{saved.mcp_tool_name}</code>
                </>
              )}
            </>
          ) : (
            'Not saved yet.'
          )
        }
      />
      {saved && (
        <div className="tabs" role="tablist" aria-label="Workflow">
          <button type="button" role="tab" id="tab-design" aria-controls="panel-design" aria-selected={tab === 'design'} onClick={() => setTab('design')}>
            Design
          </button>
          <button type="button" role="tab" id="tab-runs" aria-controls="panel-runs" aria-selected={tab === 'runs'} onClick={() => setTab('runs')}>
            Runs
          </button>
        </div>
      )}
      {tab === 'design' || !saved ? (
        <div role={saved ? 'tabpanel' : undefined} id="panel-design" aria-labelledby={saved ? 'tab-design' : undefined}>
          <Editor
            saved={saved}
            editable={manage}
            meta={meta}
            onMeta={setMeta}
            nodes={nodes}
            edges={edges}
            setNodes={setNodes}
            setEdges={setEdges}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onSaved={(workflow) => {
              setSaved(workflow);
              setNodes((current) =>
                fromDefinition(workflow).nodes.map((node) => ({ ...node, position: current.find((known) => known.id === node.id)?.position ?? node.position })),
              );
              if (!id) navigate(`/workflows/${workflow.id}`, { replace: true });
            }}
            onDeleted={() => navigate('/workflows')}
            onRun={(runId) => setSearch({ run: runId }, { replace: true })}
          />
        </div>
      ) : (
        <div role="tabpanel" id="panel-runs" aria-labelledby="tab-runs">
          <RunsPanel
            workflow={saved}
            nodes={nodes}
            edges={edges}
            selected={search.get('run')}
            onSelect={(runId) => setSearch({ run: runId }, { replace: true })}
          />
        </div>
      )}
    </>
  );
}
