import { stableStringify } from '../stableJson';
import type { AutomationEdge, AutomationNode, NodeType } from './types';

/**
 * One stored version of an automation (docs/workflows.md "Versions"): everything that runs or that a caller sees, as
 * saved — the editor's `layout` excepted. Fields beyond these (an automation-level setting added later) are kept and
 * compared like the named ones, so a new definition field is versioned and diffed without code here.
 */
export interface VersionDefinition {
  name: string;
  description: string;
  nodes: AutomationNode[];
  edges: AutomationEdge[];
  [field: string]: unknown;
}

/** A value that differs between two versions; a side without the value (an added param) has no key. */
export interface ValueChange {
  before?: unknown;
  after?: unknown;
}

export interface FieldChange extends ValueChange {
  field: string;
}

export interface ParamChange extends ValueChange {
  /** Where in `params`: `url`, `headers.Authorization`, `body.items[2].amount`. */
  path: string;
}

export interface NodeChange {
  id: string;
  type?: { before: NodeType; after: NodeType };
  params: ParamChange[];
}

/** What changed from version `from` to version `to`; every list is empty when they define the same automation. */
export interface VersionDiff {
  from: number;
  to: number;
  /** Top-level fields other than nodes and edges: name, description, active, mcp_exposed, run_control, … */
  fields: FieldChange[];
  nodes: { added: AutomationNode[]; removed: AutomationNode[]; changed: NodeChange[] };
  edges: { added: AutomationEdge[]; removed: AutomationEdge[] };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => stableStringify(a) === stableStringify(b);
const side = (key: 'before' | 'after', value: unknown) => (value === undefined ? {} : { [key]: value });

/** `headers` + `Authorization` → `headers.Authorization`; a key that is not a plain name is quoted: `data["a.b"]`. */
function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** Every leaf that differs, objects and arrays walked into; a value that changes kind is one change at its path. */
function valueChanges(before: unknown, after: unknown, path: string, into: ParamChange[]): void {
  if (same(before, after)) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) valueChanges(before[key], after[key], childPath(path, key), into);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let index = 0; index < Math.max(before.length, after.length); index += 1) valueChanges(before[index], after[index], childPath(path, index), into);
    return;
  }
  into.push({ path: path === '' ? '(params)' : path, ...side('before', before), ...side('after', after) });
}

const edgeKey = (edge: AutomationEdge) => stableStringify([edge.from, edge.to, edge.when ?? null]);

/**
 * The structured difference between two versions: nodes matched by id (added, removed, or changed with their type and
 * each param path before and after), edges matched by their ends and branch (a branch that flips is one removed and
 * one added edge), and every other top-level field that differs. Orders follow `to` for added and changed nodes, `from`
 * for removed ones, so the lists read like the definitions.
 *
 * @example diffVersions({ version: 1, definition: a }, { version: 2, definition: b })
 * // { from: 1, to: 2, fields: [{ field: 'name', before: 'Old', after: 'New' }],
 * //   nodes: { added: [], removed: [], changed: [{ id: 'wait', params: [{ path: 'seconds', before: 5, after: 10 }] }] },
 * //   edges: { added: [], removed: [] } }
 */
export function diffVersions(from: { version: number; definition: VersionDefinition }, to: { version: number; definition: VersionDefinition }): VersionDiff {
  const before = from.definition;
  const after = to.definition;
  const fields: FieldChange[] = [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => key !== 'nodes' && key !== 'edges');
  // A field added to definitions later is absent from older versions: absent and null both mean "not set".
  for (const field of keys)
    if (!same(before[field] ?? null, after[field] ?? null)) fields.push({ field, ...side('before', before[field]), ...side('after', after[field]) });

  const oldNodes = new Map(before.nodes.map((node) => [node.id, node]));
  const newIds = new Set(after.nodes.map((node) => node.id));
  const changed: NodeChange[] = [];
  for (const node of after.nodes) {
    const old = oldNodes.get(node.id);
    if (!old || same(old, node)) continue;
    const params: ParamChange[] = [];
    valueChanges(old.params, node.params, '', params);
    changed.push({ id: node.id, ...(old.type === node.type ? {} : { type: { before: old.type, after: node.type } }), params });
  }

  const oldEdges = new Set(before.edges.map(edgeKey));
  const newEdges = new Set(after.edges.map(edgeKey));
  return {
    from: from.version,
    to: to.version,
    fields,
    nodes: {
      added: after.nodes.filter((node) => !oldNodes.has(node.id)),
      removed: before.nodes.filter((node) => !newIds.has(node.id)),
      changed,
    },
    edges: { added: after.edges.filter((edge) => !oldEdges.has(edgeKey(edge))), removed: before.edges.filter((edge) => !newEdges.has(edgeKey(edge))) },
  };
}
