import dagre from '@dagrejs/dagre';

/**
 * Automatic layout of the editor's graph with dagre (@dagrejs/dagre): a layered (Sugiyama) layout, left to right, the
 * way runs flow. Chosen over elkjs because the graphs are small DAGs that need nothing but layers, dagre is ~60 KB
 * against elkjs's ~1.5 MB, and it answers synchronously (elkjs is asynchronous, built for a web worker), so laying out
 * on load, on "Tidy up" and for a new step is one plain call.
 */

export interface Point {
  x: number;
  y: number;
}
export interface Box {
  id: string;
  position: Point;
  /** The size React Flow measured; steps not measured yet count as {@link STEP_SIZE}. */
  measured?: { width?: number; height?: number };
}

/** A step's size before React Flow has measured it (`.wf-node` is at most 15rem wide). */
export const STEP_SIZE = { width: 240, height: 96 };
/** Room between columns (ranks) and between steps of one column. */
const SPACING = { ranksep: 90, nodesep: 50, marginx: 40, marginy: 40 };
/** The least room kept around a new step, so it never touches another. */
const GAP = 24;

const sizeOf = (box: Pick<Box, 'measured'>) => ({
  width: box.measured?.width ?? STEP_SIZE.width,
  height: box.measured?.height ?? STEP_SIZE.height,
});

/**
 * Top-left positions for every step, laid out by dagre: each step a column right of the steps feeding it, the
 * columns' steps spread so that edges cross as little as dagre manages.
 *
 * @example layoutGraph([{ id: 'a', position: { x: 0, y: 0 } }, { id: 'b', position: { x: 0, y: 0 } }], [{ source: 'a', target: 'b' }])
 * // Map { 'a' => { x: 40, y: 40 }, 'b' => { x: 370, y: 40 } }
 */
export function layoutGraph(nodes: ReadonlyArray<Pick<Box, 'id' | 'measured'>>, edges: ReadonlyArray<{ source: string; target: string }>): Map<string, Point> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'LR', ...SPACING });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.id, sizeOf(node));
  for (const edge of edges) if (graph.hasNode(edge.source) && graph.hasNode(edge.target)) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  const positions = new Map<string, Point>();
  for (const node of nodes) {
    const placed = graph.node(node.id) as { x: number; y: number; width: number; height: number };
    positions.set(node.id, { x: Math.round(placed.x - placed.width / 2), y: Math.round(placed.y - placed.height / 2) });
  }
  return positions;
}

function overlaps(at: Point, size: { width: number; height: number }, other: Box): boolean {
  const theirs = sizeOf(other);
  return (
    at.x < other.position.x + theirs.width + GAP &&
    other.position.x < at.x + size.width + GAP &&
    at.y < other.position.y + theirs.height + GAP &&
    other.position.y < at.y + size.height + GAP
  );
}

/** The first place at or below `wanted` where a step of `size` touches none of `nodes`. */
export function freePlace(wanted: Point, nodes: readonly Box[], size = STEP_SIZE): Point {
  const at = { ...wanted };
  for (let tries = 0; tries < 500; tries += 1) {
    const blocker = nodes.find((node) => overlaps(at, size, node));
    if (!blocker) return at;
    at.y = blocker.position.y + sizeOf(blocker).height + GAP;
  }
  return at;
}

/**
 * Where a new step goes: laid out by dagre as the next step after `after` (the selected step) — the offset dagre
 * gives it from that step is applied to where that step stands now — or, with no step chosen, in a first column of
 * its own (triggers) or right of the right-most step; then moved down until it overlaps no step.
 */
export function placeNewStep(nodes: readonly Box[], edges: ReadonlyArray<{ source: string; target: string }>, after: Box | undefined, trigger: boolean): Point {
  if (nodes.length === 0) return { x: SPACING.marginx, y: SPACING.marginy };
  if (after && !trigger) {
    const probe = '\u0000new';
    const laid = layoutGraph([...nodes, { id: probe }], [...edges, { source: after.id, target: probe }]);
    const from = laid.get(after.id)!;
    const to = laid.get(probe)!;
    return freePlace({ x: after.position.x + (to.x - from.x), y: after.position.y + (to.y - from.y) }, nodes);
  }
  const left = Math.min(...nodes.map((node) => node.position.x));
  const top = Math.min(...nodes.map((node) => node.position.y));
  const right = Math.max(...nodes.map((node) => node.position.x + sizeOf(node).width));
  return freePlace(trigger ? { x: left, y: top } : { x: right + SPACING.ranksep, y: top }, nodes);
}

/**
 * Positions for a loaded definition: stored places where there are any; a definition without them is laid out whole,
 * and steps missing from a partial layout are placed in free room beside the others.
 */
export function positionsFor(
  nodes: ReadonlyArray<{ id: string }>,
  edges: ReadonlyArray<{ source: string; target: string }>,
  stored: Record<string, Point> | undefined,
): Map<string, Point> {
  const laid = layoutGraph(nodes, edges);
  const kept = nodes.filter((node) => stored?.[node.id]);
  if (kept.length === 0) return laid;
  const placed: Box[] = kept.map((node) => ({ id: node.id, position: stored![node.id]! }));
  const positions = new Map(placed.map((box) => [box.id, box.position]));
  for (const node of nodes) {
    if (positions.has(node.id)) continue;
    const at = freePlace(laid.get(node.id)!, placed);
    placed.push({ id: node.id, position: at });
    positions.set(node.id, at);
  }
  return positions;
}
