import type { Edge, OnEdgesChange, OnNodesChange } from '@xyflow/react';
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { ApiFailure } from '../../../../api/errors';
import { useAction } from '../../../../api/useLoad';
import { ConfirmDialog } from '../../../../components/Dialog';
import { layoutGraph } from './autoLayout';
import { Canvas } from './Canvas';
import { CanvasTools } from './CanvasTools';
import { preloadCodeEditor } from './code/CodeField';
import type { NodeType } from './catalog';
import { followingEdge, newStep, placeProblems, toDefinition, type Meta, type StepNode, type Workflow, type WorkflowInput } from './graph';
import { Inspector } from './Inspector';
import { Palette } from './Palette';
import { SettingsForm } from './SettingsForm';
import { ProblemsContext, type Placed } from './problems';
import { TestRunDialog } from './TestRunDialog';
import { undoKey } from './undoKey';
import './editor.css';
import { createAutomation, deleteAutomation, updateAutomation } from '../../api/automations';

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
  history: { canUndo: boolean; canRedo: boolean; undo: () => void; redo: () => void };
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
      const result = saved ? await updateAutomation(saved.id, body) : await createAutomation(body);
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
    await deleteAutomation(saved.id);
    props.onDeleted();
  });

  const [removing, setRemoving] = useState<string[] | null>(null);
  const answerRemoval = useRef<(confirmed: boolean) => void>(() => undefined);
  const [formFocus, setFormFocus] = useState(0);
  const [fitRequest, setFitRequest] = useState(0);
  const [reveal, setReveal] = useState(0);
  useEffect(() => {
    if (editable) preloadCodeEditor();
  }, [editable]);
  const history = useRef(props.history);
  history.current = props.history;
  useEffect(() => {
    if (!editable) return;
    const onKey = (event: KeyboardEvent) => {
      const wanted = undoKey(event);
      if (!wanted) return;
      event.preventDefault();
      history.current[wanted]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editable]);

  /**
   * Adds a step after the selected one, connected to it (its yes branch when it branches), selected and shown, and
   * moves the keyboard to its form: from the Add a step list the next Tab is the new step's first field, not ~20 away.
   */
  const add = (type: NodeType) => {
    const near = nodes.find((node) => node.id === selected);
    const step = newStep(type, nodes, edges, near);
    setNodes((current) => [...current.map((node) => ({ ...node, selected: false })), { ...step, selected: true }]);
    const link = near && followingEdge(near, step, nodes, edges);
    if (link) setEdges((current) => [...current.map((edge) => (edge.selected ? { ...edge, selected: false } : edge)), link]);
    setSelected(step.id);
    setReveal((n) => n + 1);
    setFormFocus((n) => n + 1);
  };
  /** Selects a step or connection on the graph too, so the canvas and the form agree; `focusForm` moves the keyboard into its form. */
  const select = (id: string | null, focusForm = false) => {
    setNodes((current) => current.map((node) => (Boolean(node.selected) === (node.id === id) ? node : { ...node, selected: node.id === id })));
    setEdges((current) => current.map((edge) => (Boolean(edge.selected) === (edge.id === id) ? edge : { ...edge, selected: edge.id === id })));
    setSelected(id);
    setReveal((n) => n + 1);
    if (focusForm) setFormFocus((n) => n + 1);
  };
  /** Asks before steps go (the Delete key on the graph, or the form's button); connections alone go without asking. */
  const confirmRemoval = (ids: string[]): Promise<boolean> =>
    new Promise((resolve) => {
      answerRemoval.current = (confirmed) => {
        setRemoving(null);
        resolve(confirmed);
      };
      setRemoving(ids);
    });
  const removeSteps = async (ids: string[]) => {
    if (!(await confirmRemoval(ids))) return;
    setNodes((current) => current.filter((node) => !ids.includes(node.id)));
    setEdges((current) => current.filter((edge) => !ids.includes(edge.source) && !ids.includes(edge.target)));
    setSelected(null);
  };
  /** Lays the whole graph out afresh (dagre); one edit, so Undo puts every step back. */
  const tidy = () => {
    const positions = layoutGraph(nodes, edges);
    setNodes((current) => current.map((node) => ({ ...node, position: positions.get(node.id) ?? node.position })));
    setFitRequest((n) => n + 1);
  };

  return (
    <ProblemsContext.Provider value={problems}>
      <SettingsForm
        meta={meta}
        onMeta={onMeta}
        editable={editable}
        saved={saved}
        problems={problems}
        save={save}
        justSaved={justSaved}
        onTestRun={() => setTesting(true)}
        onDelete={() => setDeleting(true)}
      />
      <p className="notice editor-small-screen" role="note">
        The editor needs a larger screen: at least 760 px wide (a tablet or a computer). Here you can look at the steps and their settings, but dragging and
        connecting them is impractical.
      </p>
      <div className={editable ? 'editor' : 'editor editor-readonly'}>
        {editable && <Palette onAdd={add} />}
        <div className="canvas-column">
          {editable && <CanvasTools history={props.history} onTidy={tidy} canTidy={nodes.length > 0} />}
          <Canvas
            nodes={nodes}
            edges={edges}
            editable={editable}
            onNodesChange={props.onNodesChange}
            onEdgesChange={props.onEdgesChange}
            setEdges={setEdges}
            onSelect={setSelected}
            confirmRemoval={confirmRemoval}
            fitRequest={fitRequest}
            reveal={{ id: selected, request: reveal }}
            fillWindow
          />
        </div>
        <Inspector
          nodes={nodes}
          edges={edges}
          setNodes={setNodes}
          setEdges={setEdges}
          selected={selected}
          onSelect={select}
          onRemove={(id) => void removeSteps([id])}
          focusForm={formFocus}
          editable={editable}
          workflowId={saved?.id}
        />
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={removing?.length === 1 ? `Delete step “${removing[0]}”?` : `Delete ${removing?.length ?? 0} steps?`}
        confirmLabel={removing?.length === 1 ? 'Delete step' : 'Delete steps'}
        danger
        onCancel={() => answerRemoval.current(false)}
        onConfirm={() => answerRemoval.current(true)}
      >
        <p>Its connections go too. Undo brings it back until you leave the page.</p>
      </ConfirmDialog>
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
