import type { Edge, Node } from '@xyflow/react';
import type { FieldProblem } from '../../../../api/errors';
import type { components } from '../../../../api/schema';
import { placeNewStep, positionsFor } from './autoLayout';
import { CATALOG, isTriggerType, type NodeType, type Params } from './catalog';
import type { RunControl } from '../../runs/components/RunControlForm';

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
  /** Per-key control of event runs (RunControlForm); null: none. */
  run_control: RunControl | null;
}

export const edgeId = (from: string, to: string): string => `${from}->${to}`;

/** An edge as the canvas draws it; `labels` name the source step's branches (its catalog entry's), yes/no when not given. */
export function toEdge(edge: { from: string; to: string; when?: boolean }, labels: readonly [string, string] = ['yes', 'no']): Edge {
  return {
    id: edgeId(edge.from, edge.to),
    source: edge.from,
    target: edge.to,
    ...(edge.when === undefined ? {} : { sourceHandle: String(edge.when), label: edge.when ? labels[0] : labels[1] }),
  };
}

/** The editor's graph from a stored definition: steps where its `layout` put them, the others laid out by dagre. */
export function fromDefinition(definition: Pick<WorkflowInput, 'nodes' | 'edges' | 'layout'>): { nodes: StepNode[]; edges: Edge[] } {
  const edges = definition.edges ?? [];
  const positions = positionsFor(
    definition.nodes,
    edges.map((edge) => ({ source: edge.from, target: edge.to })),
    definition.layout ?? undefined,
  );
  return {
    nodes: definition.nodes.map((node) => ({
      id: node.id,
      type: 'step',
      position: positions.get(node.id) ?? { x: 0, y: 0 },
      data: { type: node.type, params: { ...(node.params ?? {}) } },
    })),
    edges: edges.map((edge) => {
      const from = definition.nodes.find((node) => node.id === edge.from);
      return toEdge(edge, from ? CATALOG[from.type].branches : undefined);
    }),
  };
}

/** The definition the API validates, from the editor's graph (node order kept: problems name nodes by index). */
export function toDefinition(meta: Meta, nodes: StepNode[], edges: Edge[]): WorkflowInput {
  return {
    ...meta,
    nodes: nodes.map((node) => ({ id: node.id, type: node.data.type, params: node.data.params })),
    edges: edges.map((edge) => {
      const type = nodes.find((node) => node.id === edge.source)?.data.type;
      // A condition's edges all branch; a step with optional branches (a wait) branches on the handle it was drawn from.
      const branched = type !== undefined && CATALOG[type].branches && (type === 'condition' || edge.sourceHandle === 'true' || edge.sourceHandle === 'false');
      return branched ? { from: edge.source, to: edge.target, when: edge.sourceHandle !== 'false' } : { from: edge.source, to: edge.target };
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

/** A new step of `type`, placed by dagre next to `near` (the selected step) in free room (`placeNewStep`). */
export function newStep(type: NodeType, nodes: StepNode[], edges: Edge[], near?: StepNode): StepNode {
  const id = freshId(type, new Set(nodes.map((node) => node.id)));
  const position = placeNewStep(nodes, edges, near, isTriggerType(type));
  return { id, type: 'step', position, data: { type, params: structuredClone(CATALOG[type].defaults) } };
}

/**
 * The edge that makes `step` follow `after` (a new step added while `after` was selected): from its yes branch when
 * `after` branches; none when `step` is a trigger or the definition would not allow it.
 */
export function followingEdge(after: StepNode, step: StepNode, nodes: StepNode[], edges: Edge[]): Edge | null {
  if (isTriggerType(step.data.type)) return null;
  if (edges.some((edge) => edge.source === after.id && edge.target === step.id)) return null;
  const branches = CATALOG[after.data.type].branches;
  if (branches && after.data.type === 'condition') return toEdge({ from: after.id, to: step.id, when: true }, branches);
  if (nodes.every((node) => node.id !== after.id)) return null;
  return toEdge({ from: after.id, to: step.id });
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
