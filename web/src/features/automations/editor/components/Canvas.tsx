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
  useUpdateNodeInternals,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useLayoutEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { CATALOG, isTriggerType } from './catalog';
import { edgeId, type StepNode } from './graph';
import { useProblems } from './problems';
import { StepView } from './StepView';

const NODE_TYPES = { step: StepView };
/**
 * Fitting never zooms out past 60 %: a large graph is panned rather than shrunk to unreadable text. 60 % (and a 10 %
 * margin) lets a 4-step journey laid out left to right fit whole in the 728-px-wide graph at 1280×800; at 70 % it
 * did not, and its first steps were left outside the view.
 */
const FIT = { padding: 0.1, maxZoom: 1, minZoom: 0.6 };

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
  /** The editor's graph: as tall as the window below the top bar, so scrolled to, it is seen whole. */
  fillWindow?: boolean;
  /** A step to bring into view when `request` changes (selected in the form, or just added), if it is outside the view. */
  reveal?: { id: string | null; request: number };
}

/** The least height of the editor's graph, whatever the window: a 4-step journey and its labels fit at 100 %. */
const MIN_FILL_HEIGHT = 420;
/** Room kept below the graph and above it under the top bar, in px. */
const FILL_MARGIN = 24;

/**
 * The editor graph's height: the window's less the top bar's (`calc(100vh - header)`, kept on resize), so that the page
 * scrolled to the graph shows it whole; never less than {@link MIN_FILL_HEIGHT}. Measuring from where the graph starts
 * instead left ~300 px at 1280×800 under the settings and the palette, which cut a 4-step journey off.
 */
function useFillHeight(enabled: boolean): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    if (!enabled) return;
    const measure = () => {
      const header = document.querySelector('.topbar')?.getBoundingClientRect().height ?? 0;
      setHeight(Math.max(MIN_FILL_HEIGHT, Math.floor(window.innerHeight - header - FILL_MARGIN)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [enabled]);
  return height;
}

/** Pans (at the same zoom) so a step outside the graph's view is centred in it; a step already seen stays put. */
function revealStep(instance: ReactFlowInstance<StepNode>, box: HTMLElement | null, id: string): void {
  const node = instance.getInternalNode(id);
  if (!node || !box) return;
  const { x, y, zoom } = instance.getViewport();
  const width = node.measured.width ?? 0;
  const height = node.measured.height ?? 0;
  const at = node.internals.positionAbsolute;
  const left = at.x * zoom + x;
  const top = at.y * zoom + y;
  const seen = left >= 0 && top >= 0 && left + width * zoom <= box.clientWidth && top + height * zoom <= box.clientHeight;
  if (!seen) void instance.setCenter(at.x + width / 2, at.y + height / 2, { zoom, duration: 200 });
}

/**
 * Fits the graph again when its box changes size: React Flow fits once, when the steps are first measured, and a fit
 * made in a box that then grew or shrank (the page around a remounted editor still being laid out, a window resized)
 * can leave the steps outside the view.
 */
function useRefitOnResize(box: RefObject<HTMLElement | null>, instance: ReactFlowInstance<StepNode> | null): void {
  useEffect(() => {
    const element = box.current;
    if (!element || !instance) return;
    let size = `${element.clientWidth}x${element.clientHeight}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      const now = `${element.clientWidth}x${element.clientHeight}`;
      if (now === size) return;
      size = now;
      clearTimeout(timer);
      timer = setTimeout(() => void instance.fitView(FIT), 60);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [box, instance]);
}

/**
 * Asks React Flow to measure steps it holds unmeasured. A step object handed in anew without `measured` (the first save
 * replaces every step) drops React Flow's measurement of it, and its DOM element, the same size as before, gives the
 * resize observer nothing to report: the step stays `visibility: hidden` however often the view is fitted. Measuring
 * it again by hand ends that; tried every 200 ms while any step is unmeasured (up to 3 s).
 */
function MeasureUnmeasured({ ids }: { ids: string }) {
  const updateNodeInternals = useUpdateNodeInternals();
  useEffect(() => {
    if (!ids) return;
    let tries = 0;
    let timer = setTimeout(function measure() {
      updateNodeInternals(ids.split('\n'));
      tries += 1;
      if (tries < 15) timer = setTimeout(measure, 200);
    }, 50);
    return () => clearTimeout(timer);
  }, [ids, updateNodeInternals]);
  return null;
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
  reveal,
}: Props) {
  const section = useRef<HTMLElement>(null);
  const height = useFillHeight(fillWindow);
  const problems = useProblems();
  const [instance, setInstance] = useState<ReactFlowInstance<StepNode> | null>(null);
  // A step added (or removed) may be outside the view: fit the graph again once it is measured. Steps handed in anew
  // without React Flow's measurements (the first save of a new workflow replaces them and remounts the editor) stayed
  // unmeasured and hidden — a blank graph (issue #44, editor-graph.e2e.ts: 4 of 4 steps `visibility: hidden` without
  // this) — until a fit was asked for when the count of measured steps changed.
  const measured = nodes.filter((node) => node.measured?.width).length;
  const unmeasured = useRef(0);
  unmeasured.current = nodes.length - measured;
  useEffect(() => {
    // Fitted again every 200 ms while some step is still unmeasured (up to 3 s): on a busy machine the first fit can come
    // before the steps are in the page, and then no later change would ask for another.
    let tries = 0;
    let timer = setTimeout(function fit() {
      void instance?.fitView(FIT);
      tries += 1;
      if (unmeasured.current > 0 && tries < 15) timer = setTimeout(fit, 200);
    }, 60);
    return () => clearTimeout(timer);
  }, [instance, nodes.length, measured, fitRequest]);
  useRefitOnResize(section, instance);
  const revealId = reveal?.id ?? null;
  const revealRequest = reveal?.request ?? 0;
  useEffect(() => {
    if (!instance || !revealId || revealRequest === 0) return;
    // After the re-fit a new step triggers (above), so the view it settles on is the one checked.
    const timer = setTimeout(() => revealStep(instance, section.current, revealId), 120);
    return () => clearTimeout(timer);
  }, [instance, revealId, revealRequest]);
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
        <MeasureUnmeasured
          ids={nodes
            .filter((node) => !node.measured?.width)
            .map((node) => node.id)
            .join('\n')}
        />
      </ReactFlow>
    </section>
  );
}
