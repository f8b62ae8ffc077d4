import {
  addEdge,
  Background,
  Controls,
  ReactFlow,
  type Connection,
  type Edge,
  type OnEdgesChange,
  type OnNodesChange,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useLayoutEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { CATALOG, isTriggerType } from './catalog';
import { edgeId, type StepNode } from './graph';
import { useProblems } from './problems';
import { StepView } from './StepView';

const NODE_TYPES = { step: StepView };
/** Fitting never zooms out past 70 %: a large graph is panned rather than shrunk to unreadable text. */
const FIT = { padding: 0.2, maxZoom: 1, minZoom: 0.7 };

interface Props {
  nodes: StepNode[];
  edges: Edge[];
  editable: boolean;
  onNodesChange: OnNodesChange<StepNode>;
  onEdgesChange: OnEdgesChange;
  setEdges: Dispatch<SetStateAction<Edge[]>>;
  onSelect: (id: string | null) => void;
  /** Asked before the Delete key removes steps; removing connections alone is not asked about. */
  confirmRemoval: (ids: string[]) => Promise<boolean>;
  /** Changes when the whole graph should be fitted into view again (after "Tidy up"). */
  fitRequest?: number;
  /** The editor's graph: as tall as the window leaves below it, so it is seen whole without scrolling. */
  fillWindow?: boolean;
}

/** The least height of a graph that fills the window: a short window scrolls rather than squeezing the graph. */
const MIN_FILL_HEIGHT = 300;

/** The height that takes a box from where it starts on the page to the bottom of the window (kept on resize). */
function useFillHeight(box: RefObject<HTMLElement | null>, enabled: boolean): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    if (!enabled) return;
    const measure = () => {
      if (!box.current) return;
      const top = box.current.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(MIN_FILL_HEIGHT, Math.floor(window.innerHeight - top - 12)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [box, enabled]);
  return height;
}

/** Whether a drag from one handle to another makes an edge the definition allows. */
export function connectable(nodes: StepNode[], edges: Edge[], connection: { source: string; target: string }): boolean {
  const target = nodes.find((node) => node.id === connection.target);
  if (!target || isTriggerType(target.data.type) || connection.source === connection.target) return false;
  return !edges.some((edge) => edge.source === connection.source && edge.target === connection.target);
}

/** The graph (React Flow): drag steps, drag from a step's right handle to another's left to connect. */
export function Canvas({
  nodes,
  edges,
  editable,
  onNodesChange,
  onEdgesChange,
  setEdges,
  onSelect,
  confirmRemoval,
  fitRequest = 0,
  fillWindow = false,
}: Props) {
  const section = useRef<HTMLElement>(null);
  const height = useFillHeight(section, fillWindow);
  const problems = useProblems();
  const [instance, setInstance] = useState<ReactFlowInstance<StepNode> | null>(null);
  // A step added (or removed) may be outside the view: fit the graph again once it is measured.
  useEffect(() => {
    const timer = setTimeout(() => void instance?.fitView(FIT), 60);
    return () => clearTimeout(timer);
  }, [instance, nodes.length, fitRequest]);
  const shownNodes = nodes.map((node) => ({
    ...node,
    ariaLabel: `${CATALOG[node.data.type].label} step ${node.id}${problems.byNode.has(node.id) ? ', has problems' : ''}`,
  }));
  const shownEdges = edges.map((edge) => (problems.byEdge.has(edge.id) ? { ...edge, className: 'edge-error', label: `${edge.label ?? ''} ⚠`.trim() } : edge));
  const connect = (connection: Connection) => {
    if (!connectable(nodes, edges, connection)) return;
    const sourceType = nodes.find((node) => node.id === connection.source)?.data.type;
    const branches = sourceType && CATALOG[sourceType].branches;
    const when = connection.sourceHandle === 'false' ? 'false' : 'true';
    setEdges((current) =>
      addEdge(
        {
          ...connection,
          id: edgeId(connection.source, connection.target),
          ...(branches ? { sourceHandle: when, label: when === 'true' ? branches[0] : branches[1] } : { sourceHandle: null }),
        },
        current,
      ),
    );
  };
  return (
    <section className="canvas" aria-label="Workflow graph" ref={section} style={height ? { height } : undefined}>
      <ReactFlow
        nodes={shownNodes}
        edges={shownEdges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={connect}
        onInit={setInstance}
        isValidConnection={(connection) => connectable(nodes, edges, connection)}
        onSelectionChange={({ nodes: picked, edges: pickedEdges }) => onSelect(picked[0]?.id ?? pickedEdges[0]?.id ?? null)}
        nodesDraggable={editable}
        nodesConnectable={editable}
        edgesFocusable
        deleteKeyCode={editable ? ['Delete', 'Backspace'] : null}
        onBeforeDelete={async ({ nodes: doomed }) => doomed.length === 0 || confirmRemoval(doomed.map((node) => node.id))}
        fitView
        fitViewOptions={FIT}
        minZoom={0.3}
        ariaLabelConfig={{ 'node.a11yDescription.default': 'Press Enter or Space to select this step, Delete to remove it.' }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </section>
  );
}
