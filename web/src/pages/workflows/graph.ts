import type { Edge, Node } from '@xyflow/react';
import type { FieldProblem } from '../../api/errors';
import type { components } from '../../api/schema';
import { CATALOG, isTriggerType, type NodeType, type Params } from './catalog';

export type WorkflowInput = components['schemas']['WorkflowInput'];
export type Workflow = components['schemas']['Workflow'];
export interface StepData extends Record<string, unknown> {
  type: NodeType;
  params: Params;
}
export type StepNode = Node<StepData, 'step'>;

/** What the editor holds besides the graph. */
export interface Meta {
  name: string;
  description: string;
  active: boolean;
  mcp_exposed: boolean;
}

const COLUMN = 300;
const ROW = 140;

/**
 * Positions for a definition (the format stores none): each node one column right of its furthest
 * predecessor, triggers in the first column, rows in definition order.
 */
export function layout(nodes: Array<{ id: string; type: NodeType }>, edges: Array<{ from: string; to: string }>): Map<string, { x: number; y: number }> {
  const level = new Map<string, number>(nodes.map((node) => [node.id, 0]));
  for (let pass = 0; pass < nodes.length; pass += 1) {
    let moved = false;
    for (const edge of edges) {
      const next = (level.get(edge.from) ?? 0) + 1;
      if (level.has(edge.to) && next > (level.get(edge.to) ?? 0)) {
        level.set(edge.to, next);
        moved = true;
      }
    }
    if (!moved) break;
  }
  const rows = new Map<number, number>();
  const positions = new Map<string, { x: number; y: number }>();
  for (const node of nodes) {
    const column = level.get(node.id) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    positions.set(node.id, { x: 40 + column * COLUMN, y: 40 + row * ROW });
  }
  return positions;
}

export const edgeId = (from: string, to: string): string => `${from}->${to}`;

export function toEdge(edge: { from: string; to: string; when?: boolean }): Edge {
  return {
    id: edgeId(edge.from, edge.to),
    source: edge.from,
    target: edge.to,
    ...(edge.when === undefined ? {} : { sourceHandle: String(edge.when), label: edge.when ? 'yes' : 'no' }),
  };
}

/** The editor's graph from a stored definition: steps where the layout put them, the others laid out by column. */
export function fromDefinition(definition: Pick<WorkflowInput, 'nodes' | 'edges' | 'layout'>): { nodes: StepNode[]; edges: Edge[] } {
  const edges = definition.edges ?? [];
  const positions = layout(definition.nodes, edges);
  return {
    nodes: definition.nodes.map((node) => ({
      id: node.id,
      type: 'step',
      position: definition.layout?.[node.id] ?? positions.get(node.id) ?? { x: 0, y: 0 },
      data: { type: node.type, params: { ...(node.params ?? {}) } },
    })),
    edges: edges.map(toEdge),
  };
}

/** The definition the API validates, from the editor's graph (node order kept: problems name nodes by index). */
export function toDefinition(meta: Meta, nodes: StepNode[], edges: Edge[]): WorkflowInput {
  return {
    ...meta,
    nodes: nodes.map((node) => ({ id: node.id, type: node.data.type, params: node.data.params })),
    edges: edges.map((edge) => {
      const fromCondition = nodes.find((node) => node.id === edge.source)?.data.type === 'condition';
      return fromCondition ? { from: edge.source, to: edge.target, when: edge.sourceHandle !== 'false' } : { from: edge.source, to: edge.target };
    }),
    layout: Object.fromEntries(nodes.map((node) => [node.id, { x: Math.round(node.position.x), y: Math.round(node.position.y) }])),
  };
}

/** A node id not used yet, from the type (`set_state`, `set_state_2`, …), within the API's id rule. */
export function freshId(type: NodeType, taken: Set<string>): string {
  const base = type.replace(/^(trigger|action)\./, '').replace(/[^A-Za-z0-9_-]/g, '_');
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/** Where a new node goes: right of the selected node, else below everything. */
export function placeFor(nodes: StepNode[], type: NodeType, near?: StepNode): { x: number; y: number } {
  if (near) return { x: near.position.x + COLUMN, y: near.position.y + (isTriggerType(type) ? ROW : 0) };
  const bottom = nodes.reduce((max, node) => Math.max(max, node.position.y), -ROW);
  return { x: isTriggerType(type) ? 40 : 40 + COLUMN, y: bottom + ROW };
}

export function newStep(type: NodeType, nodes: StepNode[], near?: StepNode): StepNode {
  const id = freshId(type, new Set(nodes.map((node) => node.id)));
  return { id, type: 'step', position: placeFor(nodes, type, near), data: { type, params: structuredClone(CATALOG[type].defaults) } };
}

/**
 * The API's problems (`nodes[2].params.url`, `edges[0].when`, `name`) sorted to where they belong:
 * by node id (the index is the node's place in the body that was sent), by edge id, or the form.
 */
export function placeProblems(
  details: FieldProblem[],
  sent: WorkflowInput,
): { byNode: Map<string, FieldProblem[]>; byEdge: Map<string, FieldProblem[]>; general: FieldProblem[] } {
  const byNode = new Map<string, FieldProblem[]>();
  const byEdge = new Map<string, FieldProblem[]>();
  const general: FieldProblem[] = [];
  for (const problem of details) {
    const node = /^nodes\[(\d+)\]/.exec(problem.field);
    const edge = /^edges\[(\d+)\]/.exec(problem.field);
    const sentNode = node ? sent.nodes[Number(node[1])] : undefined;
    const sentEdge = edge ? sent.edges?.[Number(edge[1])] : undefined;
    if (sentNode) byNode.set(sentNode.id, [...(byNode.get(sentNode.id) ?? []), problem]);
    else if (sentEdge) byEdge.set(edgeId(sentEdge.from, sentEdge.to), [...(byEdge.get(edgeId(sentEdge.from, sentEdge.to)) ?? []), problem]);
    else general.push(problem);
  }
  return { byNode, byEdge, general };
}

/** `nodes[2].params.url` → `url`, for showing a node's problem next to its field. */
export const paramOf = (field: string): string | null => /^nodes\[\d+\]\.params\.([^.[]+)/.exec(field)?.[1] ?? null;
