import { useEdgesState, useNodesState, type Edge } from '@xyflow/react';
import { useEffect, useRef, useState } from 'react';
import { Link, useBlocker, useNavigate, useParams, useSearchParams } from 'react-router';
import { useCanManage } from '../../../../auth/session';
import { ConfirmDialog } from '../../../../components/Dialog';
import { ErrorNotice, Loading, PageHeader, StatusBadge } from '../../../../components/Status';
import { BacktestPanel } from '../../backtests/components/BacktestPanel';
import { Editor } from './Editor';
import { fromDefinition, toDefinition, type Meta, type StepNode, type Workflow } from './graph';
import { RECIPES } from './recipes';
import { RunsPanel } from '../../runs/components/RunsPanel';
import { VersionsPanel } from '../../versions/components/VersionsPanel';
import { editSignature, useEditHistory, type EditSnapshot } from './useEditHistory';
import { useAutomation } from '../../api/automations';

const NO_META: Meta = { name: '', description: '', active: true, mcp_exposed: false, run_control: null };

/** The editor's state for a definition as loaded or saved. */
function snapshotOf(definition: Workflow | (typeof RECIPES)[number]['definition']): EditSnapshot {
  const graph = fromDefinition(definition);
  const meta = {
    name: definition.name,
    description: definition.description ?? '',
    active: definition.active ?? true,
    mcp_exposed: definition.mcp_exposed ?? false,
    run_control: ('run_control' in definition ? definition.run_control : null) ?? null,
  };
  return { meta, nodes: graph.nodes, edges: graph.edges };
}

/**
 * A workflow: loads it (or a recipe for a new one) and hosts the editor, its runs and its versions. `?run=<id>`
 * opens a run in the Runs tab, `?tab=versions` the Versions tab.
 */
export default function EditorPage() {
  const { id } = useParams();
  const [search, setSearch] = useSearchParams();
  const manage = useCanManage();
  const navigate = useNavigate();
  const recipe = RECIPES.find((candidate) => candidate.id === (search.get('recipe') ?? 'blank')) ?? RECIPES[RECIPES.length - 1]!;
  const loaded = useAutomation(id);
  const [meta, setMeta] = useState<Meta | null>(null);
  const [nodes, setNodes, onNodesChange] = useNodesState<StepNode>([]);
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge>([]);
  const [saved, setSaved] = useState<Workflow | null>(null);
  const named = search.get('tab');
  const tab = search.get('run') !== null || named === 'runs' ? 'runs' : named === 'versions' || named === 'backtest' ? named : 'design';

  const current: EditSnapshot = { meta: meta ?? NO_META, nodes, edges };
  // A step or connection selected before an undo stays selected if it is still there.
  const history = useEditHistory(current, (snapshot) => {
    setMeta(snapshot.meta);
    setNodes((now) => {
      const chosen = new Set(now.filter((node) => node.selected).map((node) => node.id));
      return snapshot.nodes.map((node) => (chosen.has(node.id) ? { ...node, selected: true } : node));
    });
    setEdges((now) => {
      const chosen = new Set(now.filter((edge) => edge.selected).map((edge) => edge.id));
      return snapshot.edges.map((edge) => (chosen.has(edge.id) ? { ...edge, selected: true } : edge));
    });
  });
  // What the last load or save left, places of the steps included: anything else is unsaved work.
  const baseline = useRef<string | null>(null);
  const dirty = baseline.current !== null && editSignature(current) !== baseline.current;
  const unsaved = useRef(false);
  unsaved.current = dirty;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => unsaved.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const reset = (definition: Workflow | (typeof recipe)['definition']) => {
    const snapshot = snapshotOf(definition);
    setMeta(snapshot.meta);
    setNodes(snapshot.nodes);
    setEdges(snapshot.edges);
    baseline.current = editSignature(snapshot);
    history.reset(snapshot);
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

  const setTab = (next: 'design' | 'runs' | 'versions' | 'backtest') => setSearch(next === 'design' ? {} : { tab: next }, { replace: true });

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
          <button
            type="button"
            role="tab"
            id="tab-versions"
            aria-controls="panel-versions"
            aria-selected={tab === 'versions'}
            onClick={() => setTab('versions')}
          >
            Versions
          </button>
          <button
            type="button"
            role="tab"
            id="tab-backtest"
            aria-controls="panel-backtest"
            aria-selected={tab === 'backtest'}
            onClick={() => setTab('backtest')}
          >
            Backtest
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
              const stored = snapshotOf(workflow);
              setSaved(workflow);
              setMeta(stored.meta);
              setNodes(stored.nodes);
              baseline.current = editSignature(stored);
              unsaved.current = false;
              if (!id) navigate(`/workflows/${workflow.id}`, { replace: true });
            }}
            history={history}
            onDeleted={() => {
              unsaved.current = false;
              navigate('/workflows');
            }}
            onRun={(runId) => setSearch({ run: runId }, { replace: true })}
          />
        </div>
      ) : tab === 'backtest' ? (
        <div role="tabpanel" id="panel-backtest" aria-labelledby="tab-backtest">
          <BacktestPanel workflowId={saved.id} draft={toDefinition(meta, nodes, edges)} unsaved={dirty} editable={manage} />
        </div>
      ) : tab === 'versions' ? (
        <div role="tabpanel" id="panel-versions" aria-labelledby="tab-versions">
          <VersionsPanel
            workflow={saved}
            editable={manage}
            unsaved={dirty}
            onRestored={(workflow) => {
              setSaved(workflow);
              reset(workflow);
              setTab('design');
            }}
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
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave and discard"
        danger
        onCancel={() => blocker.reset?.()}
        onConfirm={() => blocker.proceed?.()}
      >
        <p>Your changes to this workflow are not saved. Stay to save them, or leave and lose them.</p>
      </ConfirmDialog>
    </>
  );
}
