import { findCycle, GraphIndex, reachableFrom } from './graph';
import { checkParams, type Problems } from './nodeParams';
import { NODE_MODULES } from './nodes';
import { readRunControl, type RunControl } from './runControl';
import { isRecord, isTrigger, NODE_TYPES, type NodeType, type AutomationEdge, type AutomationNode } from './types';

/** A workflow as created or replaced through the management API (DESIGN.md "Workflows"), after validation. */
export interface AutomationBody {
  name: string;
  description: string;
  active: boolean;
  mcp_exposed: boolean;
  nodes: AutomationNode[];
  edges: AutomationEdge[];
  /** Where the editor shows each step; absent on an update keeps the stored places (AutomationLayout). */
  layout?: AutomationLayout;
  /** Per-key concurrency, throttle, debounce and cancel-on-event of its event runs (core/automations/runControl.ts); absent: none. */
  run_control?: RunControl;
}

/** Each step's place in the dashboard's editor, by node id: not part of what runs, so it never bumps `version`. */
export type AutomationLayout = Record<string, { x: number; y: number }>;

/** How far from the origin a step may be placed, in the editor's pixels. */
const MAX_COORDINATE = 1_000_000;

export interface DefinitionProblem {
  field: string;
  message: string;
}

export type AutomationBodyResult = { ok: true; value: AutomationBody } | { ok: false; details: DefinitionProblem[] };

export const AUTOMATION_LIMITS = { nodes: 100, edges: 200, name: 200 } as const;

const NODE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const NODE_KEYS = ['id', 'type', 'params'];
const EDGE_KEYS = ['from', 'to', 'when'];
/** Record fields a client may send back unchanged from a GET (a GET → PUT round trip); the server sets them. */
const READ_ONLY_KEYS = ['id', 'version', 'mcp_tool_name', 'created_at', 'updated_at'];
const BODY_KEYS = ['name', 'description', 'active', 'mcp_exposed', 'nodes', 'edges', 'layout', 'run_control', ...READ_ONLY_KEYS];

function unknownKeys(value: Record<string, unknown>, allowed: readonly string[], prefix: string, problems: Problems): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) problems.push({ field: prefix === '' ? key : `${prefix}.${key}`, message: 'unknown field' });
  }
}

interface ReadNodes {
  /** Nodes with a valid, unique id and a known type (their params may still have problems). */
  nodes: AutomationNode[];
  /** Every valid, unique id → its index in the body, including nodes of an unknown type. */
  indexOf: Map<string, number>;
}

function readNodes(raw: unknown, problems: Problems): ReadNodes {
  const result: ReadNodes = { nodes: [], indexOf: new Map() };
  if (!Array.isArray(raw)) {
    problems.push({ field: 'nodes', message: 'must be an array' });
    return result;
  }
  if (raw.length > AUTOMATION_LIMITS.nodes) problems.push({ field: 'nodes', message: `must have at most ${AUTOMATION_LIMITS.nodes} nodes` });
  raw.forEach((item: unknown, index) => {
    const field = `nodes[${index}]`;
    if (!isRecord(item)) return void problems.push({ field, message: 'must be an object' });
    unknownKeys(item, NODE_KEYS, field, problems);
    const { id, type } = item;
    const params = item.params === undefined ? {} : item.params;
    let validId = false;
    if (typeof id !== 'string' || !NODE_ID.test(id)) problems.push({ field: `${field}.id`, message: 'must be 1 to 64 of A-Z, a-z, 0-9, _ and -' });
    else if (result.indexOf.has(id)) problems.push({ field: `${field}.id`, message: `duplicate node id "${id}"` });
    else {
      validId = true;
      result.indexOf.set(id, index);
    }
    const knownType = typeof type === 'string' && (NODE_TYPES as readonly string[]).includes(type);
    if (!knownType) problems.push({ field: `${field}.type`, message: `must be one of ${NODE_TYPES.join(', ')}` });
    if (!isRecord(params)) problems.push({ field: `${field}.params`, message: 'must be an object' });
    else if (knownType) checkParams(type as NodeType, params, `${field}.params`, problems);
    if (validId && knownType) result.nodes.push({ id: id as string, type: type as NodeType, params: isRecord(params) ? params : {} });
  });
  return result;
}

function readEdges(raw: unknown, read: ReadNodes, problems: Problems): { edges: AutomationEdge[]; allValid: boolean } {
  if (raw === undefined) return { edges: [], allValid: true };
  if (!Array.isArray(raw)) {
    problems.push({ field: 'edges', message: 'must be an array' });
    return { edges: [], allValid: false };
  }
  if (raw.length > AUTOMATION_LIMITS.edges) problems.push({ field: 'edges', message: `must have at most ${AUTOMATION_LIMITS.edges} edges` });
  const nodes = new Map(read.nodes.map((node) => [node.id, node]));
  const edges: AutomationEdge[] = [];
  const seen = new Set<string>();
  let allValid = true;
  raw.forEach((item: unknown, index) => {
    const field = `edges[${index}]`;
    if (!isRecord(item)) {
      allValid = false;
      return void problems.push({ field, message: 'must be an object' });
    }
    unknownKeys(item, EDGE_KEYS, field, problems);
    const count = problems.length;
    const [from, to] = (['from', 'to'] as const).map((end) => {
      const id = item[end];
      if (typeof id !== 'string') problems.push({ field: `${field}.${end}`, message: 'must be a node id' });
      else if (!read.indexOf.has(id)) problems.push({ field: `${field}.${end}`, message: `unknown node "${id}"` });
      return typeof id === 'string' ? nodes.get(id) : undefined;
    });
    if (from && to && from.id === to.id) problems.push({ field: `${field}.to`, message: 'an edge cannot lead from a node to itself' });
    if (to && isTrigger(to.type)) problems.push({ field: `${field}.to`, message: 'a trigger node cannot have incoming edges' });
    const branches = from ? NODE_MODULES[from.type].branches : 'none';
    if (branches === 'required' && typeof item.when !== 'boolean')
      problems.push({ field: `${field}.when`, message: 'must be true or false on an edge leaving a condition' });
    if (branches === 'optional' && item.when !== undefined && typeof item.when !== 'boolean')
      problems.push({ field: `${field}.when`, message: 'must be true or false' });
    if (from && branches === 'none' && item.when !== undefined)
      problems.push({ field: `${field}.when`, message: 'only edges leaving a condition or an action.wait_for_event carry when' });
    if (from && to) {
      const key = JSON.stringify([from.id, to.id]);
      if (seen.has(key)) problems.push({ field, message: `duplicate edge from "${from.id}" to "${to.id}"` });
      seen.add(key);
    }
    if (problems.length !== count || !from || !to) return void (allValid = false);
    edges.push(typeof item.when === 'boolean' ? { from: from.id, to: to.id, when: item.when } : { from: from.id, to: to.id });
  });
  return { edges, allValid };
}

function readLayout(raw: unknown, read: ReadNodes, problems: Problems): AutomationLayout | undefined {
  if (raw === undefined) return undefined;
  if (!isRecord(raw)) return void problems.push({ field: 'layout', message: 'must be an object of node ids to { x, y }' });
  const layout: AutomationLayout = {};
  for (const [id, place] of Object.entries(raw)) {
    const field = `layout.${id}`;
    if (!read.indexOf.has(id)) {
      problems.push({ field, message: `unknown node "${id.slice(0, 64)}"` });
      continue;
    }
    const coordinate = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_COORDINATE;
    if (!isRecord(place) || !coordinate(place.x) || !coordinate(place.y) || Object.keys(place).some((key) => key !== 'x' && key !== 'y')) {
      problems.push({ field, message: `must be { x, y } with numbers from -${MAX_COORDINATE} to ${MAX_COORDINATE}` });
      continue;
    }
    layout[id] = { x: Math.round(place.x as number), y: Math.round(place.y as number) };
  }
  return layout;
}

function checkGraph(read: ReadNodes, edges: AutomationEdge[], allEdgesValid: boolean, problems: Problems): void {
  const { nodes } = read;
  const triggers = nodes.filter((node) => isTrigger(node.type));
  if (triggers.length === 0) problems.push({ field: 'nodes', message: 'needs at least one trigger node' });
  const cycle = findCycle({ nodes, edges });
  if (cycle) return void problems.push({ field: 'edges', message: `must not form a cycle: ${[...cycle, cycle[0]].join(' → ')}` });
  if (!allEdgesValid || nodes.length !== read.indexOf.size) return;
  const graph = new GraphIndex({ nodes, edges });
  const reached = new Set<string>();
  for (const trigger of triggers) for (const id of reachableFrom({ nodes, edges }, trigger.id)) reached.add(id);
  for (const node of nodes) {
    const field = `nodes[${read.indexOf.get(node.id) ?? 0}]`;
    if (node.type === 'condition' && graph.outgoing(node.id).length === 0) problems.push({ field, message: 'a condition needs at least one outgoing edge' });
    if (triggers.length > 0 && !reached.has(node.id)) problems.push({ field, message: 'is not reachable from any trigger' });
  }
}

/**
 * Checks a workflow body of `POST`/`PUT /workflows-api/workflows` and reports every problem at once (the dashboard
 * shows them next to the fields): node ids and types, each type's exact params, `{{ }}` templates and JSONata
 * expressions that must compile, edges, a DAG reachable from its triggers, and the editor's `layout` (places of known
 * nodes). Read-only record fields (`id`, `version`,
 * `mcp_tool_name`, `created_at`, `updated_at`) are ignored so a GET → PUT round trip validates.
 *
 * @example validateAutomationBody({ name: 'x', nodes: [{ id: 't', type: 'trigger.manual' }], edges: [] })
 * // { ok: true, value: { name: 'x', description: '', active: true, mcp_exposed: false, nodes: [{ id: 't', type: 'trigger.manual', params: {} }], edges: [] } }
 * @example validateAutomationBody({ name: '', nodes: [] })
 * // { ok: false, details: [{ field: 'name', message: 'must be 1 to 200 characters' }, { field: 'nodes', message: 'needs at least one trigger node' }] }
 */
export function validateAutomationBody(raw: unknown): AutomationBodyResult {
  if (!isRecord(raw)) return { ok: false, details: [{ field: 'body', message: 'must be a JSON object' }] };
  const problems: Problems = [];
  unknownKeys(raw, BODY_KEYS, '', problems);
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (typeof raw.name !== 'string') problems.push({ field: 'name', message: 'must be a string' });
  else if (name.length < 1 || name.length > AUTOMATION_LIMITS.name)
    problems.push({ field: 'name', message: `must be 1 to ${AUTOMATION_LIMITS.name} characters` });
  const description = raw.description === undefined ? '' : raw.description;
  if (typeof description !== 'string') problems.push({ field: 'description', message: 'must be a string' });
  const active = raw.active === undefined ? true : raw.active;
  if (typeof active !== 'boolean') problems.push({ field: 'active', message: 'must be true or false' });
  const mcpExposed = raw.mcp_exposed === undefined ? false : raw.mcp_exposed;
  if (typeof mcpExposed !== 'boolean') problems.push({ field: 'mcp_exposed', message: 'must be true or false' });
  const read = readNodes(raw.nodes, problems);
  const { edges, allValid } = readEdges(raw.edges, read, problems);
  checkGraph(read, edges, allValid, problems);
  const layout = readLayout(raw.layout, read, problems);
  const runControl = readRunControl(raw.run_control, read.nodes, problems);
  if (problems.length > 0) return { ok: false, details: problems };
  const value: AutomationBody = {
    name,
    description: description as string,
    active: active as boolean,
    mcp_exposed: mcpExposed as boolean,
    nodes: read.nodes,
    edges,
    ...(runControl ? { run_control: runControl } : {}),
  };
  return { ok: true, value: layout ? { ...value, layout } : value };
}
