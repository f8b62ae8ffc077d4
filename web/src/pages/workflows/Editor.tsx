import type { Edge, OnEdgesChange, OnNodesChange } from '@xyflow/react';
import { useState, type Dispatch, type SetStateAction } from 'react';
import { api, call } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { useAction } from '../../api/useLoad';
import { ConfirmDialog } from '../../components/Dialog';
import { Checkbox, TextField } from '../../components/Field';
import { ErrorNotice, Success } from '../../components/Status';
import { Canvas } from './Canvas';
import type { NodeType } from './catalog';
import { newStep, placeProblems, toDefinition, type Meta, type StepNode, type Workflow, type WorkflowInput } from './graph';
import { Inspector } from './Inspector';
import { Palette } from './Palette';
import { ProblemsContext, type Placed } from './problems';
import { TestRunDialog } from './TestRunDialog';

interface Props {
  saved: Workflow | null;
  editable: boolean;
  meta: Meta;
  onMeta: (meta: Meta) => void;
  nodes: StepNode[];
  edges: Edge[];
  setNodes: Dispatch<SetStateAction<StepNode[]>>;
  setEdges: Dispatch<SetStateAction<Edge[]>>;
  onNodesChange: OnNodesChange<StepNode>;
  onEdgesChange: OnEdgesChange;
  onSaved: (workflow: Workflow) => void;
  onDeleted: () => void;
  onRun: (runId: string) => void;
}

const NO_PROBLEMS: Placed = { byNode: new Map(), byEdge: new Map(), general: [] };

/**
 * The visual editor: name and switches, the palette, the graph, and the inspector of the selected
 * step. Saving sends the whole definition; the API's validation problems come back placed on the node
 * and field they name.
 */
export function Editor(props: Props) {
  const { saved, editable, meta, onMeta, nodes, edges, setNodes, setEdges } = props;
  const [selected, setSelected] = useState<string | null>(null);
  const [problems, setProblems] = useState<Placed>(NO_PROBLEMS);
  const [justSaved, setJustSaved] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [testing, setTesting] = useState(false);

  const save = useAction(async () => {
    setJustSaved(false);
    const body: WorkflowInput = toDefinition(meta, nodes, edges);
    try {
      const result = saved
        ? await call(api.PUT('/workflows-api/workflows/{id}', { params: { path: { id: saved.id } }, body }))
        : await call(api.POST('/workflows-api/workflows', { body }));
      setProblems(NO_PROBLEMS);
      setJustSaved(true);
      props.onSaved(result.data);
    } catch (error) {
      setProblems(error instanceof ApiFailure && error.code === 'VALIDATION_FAILED' ? placeProblems(error.details, body) : NO_PROBLEMS);
      throw error;
    }
  });
  const remove = useAction(async () => {
    if (!saved) return;
    await call(api.DELETE('/workflows-api/workflows/{id}', { params: { path: { id: saved.id } } }));
    props.onDeleted();
  });

  const add = (type: NodeType) => {
    const near = nodes.find((node) => node.id === selected);
    const step = newStep(type, nodes, near);
    setNodes((current) => [...current.map((node) => ({ ...node, selected: false })), { ...step, selected: true }]);
    setSelected(step.id);
  };
  const invalid = save.error?.code === 'VALIDATION_FAILED';
  const problemCount = problems.general.length + [...problems.byNode.values(), ...problems.byEdge.values()].reduce((sum, list) => sum + list.length, 0);

  return (
    <ProblemsContext.Provider value={problems}>
      <form
        className="panel"
        aria-label="Workflow settings"
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <div className="grid-2">
          <TextField
            label="Name"
            value={meta.name}
            disabled={!editable}
            onChange={(event) => onMeta({ ...meta, name: event.target.value })}
            problems={problems.general.filter((problem) => problem.field === 'name')}
          />
          <TextField
            label="Description"
            value={meta.description}
            disabled={!editable}
            onChange={(event) => onMeta({ ...meta, description: event.target.value })}
            problems={problems.general.filter((problem) => problem.field === 'description')}
          />
        </div>
        <div className="toolbar">
          <Checkbox
            label="Active"
            hint="Events, webhooks and schedules run it only while active; a test run works either way."
            checked={meta.active}
            disabled={!editable}
            onChange={(event) => onMeta({ ...meta, active: event.target.checked })}
          />
          <Checkbox
            label="Expose over MCP"
            hint="AI assistants with an MCP-enabled key can call it as a tool (API keys → MCP)."
            checked={meta.mcp_exposed}
            disabled={!editable}
            onChange={(event) => onMeta({ ...meta, mcp_exposed: event.target.checked })}
          />
        </div>
        {editable && (
          <div className="row-actions">
            <button type="submit" className="button button-primary" disabled={save.pending}>
              {save.pending ? 'Saving…' : saved ? 'Save changes' : 'Save workflow'}
            </button>
            {saved && (
              <button type="button" className="button" onClick={() => setTesting(true)}>
                Test run…
              </button>
            )}
            {saved && (
              <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
                Delete
              </button>
            )}
          </div>
        )}
        {!editable && <p className="hint">You can look but not change: editing and test runs need the Owner or an Admin.</p>}
        {justSaved && <Success>Saved as version {saved?.version}.</Success>}
        {save.error &&
          (invalid ? (
            <div className="notice notice-error" role="alert">
              <p>
                <strong>
                  Not saved: {problemCount} problem{problemCount === 1 ? '' : 's'}.
                </strong>{' '}
                Steps with problems are marked in red; select one to see its problems next to its fields.
              </p>
              {problems.general.length > 0 && (
                <ul>
                  {problems.general.map((problem, index) => (
                    <li key={index}>
                      <code>{problem.field}</code>: {problem.message}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ) : (
            <ErrorNotice error={save.error} title="Not saved." />
          ))}
      </form>
      <div className="editor">
        {editable ? <Palette onAdd={add} /> : <div />}
        <Canvas
          nodes={nodes}
          edges={edges}
          editable={editable}
          onNodesChange={props.onNodesChange}
          onEdgesChange={props.onEdgesChange}
          setEdges={setEdges}
          selected={selected}
          onSelect={setSelected}
        />
        <Inspector nodes={nodes} edges={edges} setNodes={setNodes} setEdges={setEdges} selected={selected} onSelect={setSelected} editable={editable} />
      </div>
      {saved && testing && (
        <TestRunDialog
          workflow={saved}
          onClose={() => setTesting(false)}
          onRun={(runId) => {
            setTesting(false);
            props.onRun(runId);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting}
        title={`Delete “${saved?.name ?? ''}”?`}
        confirmLabel="Delete workflow"
        danger
        pending={remove.pending}
        error={remove.error}
        onCancel={() => {
          setDeleting(false);
          remove.clear();
        }}
        onConfirm={() => void remove.run()}
      >
        <p>Its schedules and webhook URLs stop at once. Its runs stay readable.</p>
      </ConfirmDialog>
    </ProblemsContext.Provider>
  );
}
