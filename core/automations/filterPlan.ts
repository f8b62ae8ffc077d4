import { isPayloadRef } from '../payloadRef';
import { isTruthy, loadJsonata } from './expressions';

/**
 * Trigger filters the dispatcher judges itself, without the expression sandbox (docs/workflows.md "How events reach
 * automations"). Most filters only navigate the event, compare with literals and combine with `and`/`or` —
 * `trigger.data.type = "deposit" and trigger.data.amount > 100000`. Their cost is bounded by their shape: a walk of at
 * most {@link MAX_PATH} plain names through plain objects, a comparison, a boolean; no regex, no function a tenant
 * defines, no loop, over an event whose size and depth ingest already bounds. Such a filter is compiled once per
 * automation version into an {@link InlineExpr} and evaluated on the dispatcher's thread; anything else goes to the
 * sandbox as before.
 *
 * Evaluation answers only where JSONata answers the same ({@link NOT_INLINE} otherwise, and the sandbox decides): an
 * array or object met on a path (JSONata maps over arrays), a comparison JSONata would refuse (`"a" < 1`, `null < 1`).
 * `test/unit/filterPlan.test.ts` checks both side by side.
 *
 * A filter whose top level is `<path> = <literal>`, alone or in an `and`, is also indexed: an event whose value at that
 * path is another scalar cannot pass it, so the automation is not looked at for that event at all. Matching then costs
 * per event, not per event and automation.
 */

export const NOT_INLINE = Symbol('not judged inline');

type Scalar = string | number | boolean | null;
type Value = Scalar | undefined | typeof NOT_INLINE;

export type InlineExpr =
  | { kind: 'path'; names: string[] }
  | { kind: 'literal'; value: Scalar }
  | { kind: 'compare'; op: '=' | '!=' | '<' | '<=' | '>' | '>='; lhs: InlineExpr; rhs: InlineExpr }
  | { kind: 'logic'; op: 'and' | 'or'; lhs: InlineExpr; rhs: InlineExpr }
  | { kind: 'in'; lhs: InlineExpr; values: Scalar[] }
  | { kind: 'not'; operand: InlineExpr }
  | { kind: 'exists'; names: string[] };

/** An equality a filter cannot pass without: the event's value at `names` must be one of `values`. */
export interface FilterIndexKey {
  names: string[];
  values: Scalar[];
}

export interface FilterPlan {
  /** Null when the filter needs the sandbox. */
  inline: InlineExpr | null;
  /** Null when no top-level equality narrows the filter. */
  index: FilterIndexKey | null;
}

/** The longest path a filter may walk inline (as plain-path templates). */
export const MAX_PATH = 32;
/** The most AST nodes an inline filter may have: bounded by the 4,000-character limit anyway, kept explicit. */
const MAX_NODES = 256;
const COMPARISONS = new Set(['=', '!=', '<', '<=', '>', '>=']);

interface Ast {
  type: string;
  value?: unknown;
  steps?: Ast[];
  lhs?: Ast;
  rhs?: Ast;
  expressions?: Ast[];
  arguments?: Ast[];
  procedure?: Ast;
  [other: string]: unknown;
}

const STEP_KEYS = new Set(['type', 'value', 'position']);

function pathNames(node: Ast): string[] | null {
  if (node.type !== 'path' || !Array.isArray(node.steps) || node.steps.length === 0 || node.steps.length > MAX_PATH) return null;
  const names: string[] = [];
  for (const step of node.steps) {
    if (step.type !== 'name' || typeof step.value !== 'string' || Object.keys(step).some((key) => !STEP_KEYS.has(key))) return null;
    names.push(step.value);
  }
  return names;
}

function literalOf(node: Ast): { value: Scalar } | null {
  if (node.type === 'string' && typeof node.value === 'string') return { value: node.value };
  if (node.type === 'number' && typeof node.value === 'number' && Number.isFinite(node.value)) return { value: node.value };
  if (node.type === 'value' && (node.value === null || typeof node.value === 'boolean')) return { value: node.value };
  return null;
}

function functionOf(node: Ast): { name: string; argument: Ast } | null {
  if (node.type !== 'function' || node.procedure?.type !== 'variable' || node.arguments?.length !== 1) return null;
  return { name: String(node.procedure.value), argument: node.arguments[0]! };
}

/** The restricted form of a JSONata AST node, or null when any part of it is outside what is judged inline. */
function toInline(node: Ast, budget: { nodes: number }): InlineExpr | null {
  if ((budget.nodes += 1) > MAX_NODES) return null;
  if (node.type === 'block' && node.expressions?.length === 1) return toInline(node.expressions[0]!, budget);
  const names = pathNames(node);
  if (names) return { kind: 'path', names };
  const literal = literalOf(node);
  if (literal) return { kind: 'literal', value: literal.value };
  if (node.type === 'binary' && node.lhs && node.rhs) {
    const op = String(node.value);
    if (op === 'in') {
      const lhs = toInline(node.lhs, budget);
      const values = node.rhs.type === 'unary' && node.rhs.value === '[' ? (node.rhs.expressions ?? []).map(literalOf) : [literalOf(node.rhs)];
      if (!lhs || values.some((value) => value === null)) return null;
      return { kind: 'in', lhs, values: values.map((value) => value!.value) };
    }
    const lhs = toInline(node.lhs, budget);
    const rhs = lhs && toInline(node.rhs, budget);
    if (!lhs || !rhs) return null;
    if (COMPARISONS.has(op)) return { kind: 'compare', op: op as '=', lhs, rhs };
    if (op === 'and' || op === 'or') return { kind: 'logic', op, lhs, rhs };
    return null;
  }
  const call = functionOf(node);
  if (call?.name === 'not') {
    const operand = toInline(call.argument, budget);
    return operand && { kind: 'not', operand };
  }
  if (call?.name === 'exists') {
    const path = pathNames(call.argument);
    return path && { kind: 'exists', names: path };
  }
  return null;
}

function conjuncts(expr: InlineExpr): InlineExpr[] {
  return expr.kind === 'logic' && expr.op === 'and' ? [...conjuncts(expr.lhs), ...conjuncts(expr.rhs)] : [expr];
}

/** The first top-level `path = literal` (either way round) or `path in [literals]` of the filter. */
function indexOf(expr: InlineExpr): FilterIndexKey | null {
  for (const part of conjuncts(expr)) {
    if (part.kind === 'compare' && part.op === '=') {
      const [path, literal] = part.lhs.kind === 'path' ? [part.lhs, part.rhs] : [part.rhs, part.lhs];
      if (path.kind === 'path' && literal.kind === 'literal') return { names: path.names, values: [literal.value] };
    }
    if (part.kind === 'in' && part.lhs.kind === 'path') return { names: part.lhs.names, values: part.values };
  }
  return null;
}

/**
 * How the dispatcher judges a trigger filter. A filter that does not compile needs the sandbox, which answers its
 * `EXPRESSION_ERROR` (a stored definition always compiled when it was saved).
 *
 * @example planFilter('trigger.data.amount = 5').index // { names: ['trigger', 'data', 'amount'], values: [5] }
 * @example planFilter('$match(trigger.data.note, /x+/)').inline // null
 */
export function planFilter(source: string): FilterPlan {
  let ast: Ast;
  try {
    ast = loadJsonata()(source).ast() as Ast;
  } catch {
    return { inline: null, index: null };
  }
  const inline = toInline(ast, { nodes: 0 });
  const index = inline ? indexOf(inline) : null;
  return { inline, index };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !isPayloadRef(value);

/** The value at `names`: a scalar, undefined when missing, the object or array found at the end as `end`, or NOT_INLINE. */
function walk(names: string[], context: unknown): { at: Value } | { end: object } {
  let value: unknown = context;
  for (const name of names) {
    if (!isPlainObject(value)) return { at: NOT_INLINE };
    value = Object.hasOwn(value, name) ? value[name] : undefined;
    if (value === undefined) return { at: undefined };
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return { at: value };
  if (typeof value === 'number' && Number.isFinite(value)) return { at: value };
  if (typeof value === 'object') return { end: value };
  return { at: NOT_INLINE };
}

/** The scalar an event holds at `names` (undefined when missing), or NOT_INLINE when JSONata would read more there. */
export function scalarAt(names: string[], context: unknown): Scalar | undefined | typeof NOT_INLINE {
  const found = walk(names, context);
  return 'at' in found ? found.at : NOT_INLINE;
}

function compare(op: string, lhs: Value, rhs: Value): Value {
  if (lhs === NOT_INLINE || rhs === NOT_INLINE) return NOT_INLINE;
  if (op === '=' || op === '!=') {
    if (lhs === undefined || rhs === undefined) return false;
    return op === '=' ? lhs === rhs : lhs !== rhs;
  }
  const comparable = (value: Value) => value === undefined || typeof value === 'string' || typeof value === 'number';
  if (!comparable(lhs) || !comparable(rhs)) return NOT_INLINE;
  if (lhs === undefined || rhs === undefined) return undefined;
  if (typeof lhs !== typeof rhs) return NOT_INLINE;
  const [a, b] = [lhs as string | number, rhs as string | number];
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
}

function evaluate(expr: InlineExpr, context: unknown): Value {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'path':
      return scalarAt(expr.names, context);
    case 'exists': {
      const found = walk(expr.names, context);
      return 'end' in found ? true : found.at === NOT_INLINE ? NOT_INLINE : found.at !== undefined;
    }
    case 'not': {
      const operand = evaluate(expr.operand, context);
      return operand === NOT_INLINE || operand === undefined ? operand : !isTruthy(operand);
    }
    case 'in': {
      const lhs = evaluate(expr.lhs, context);
      return lhs === NOT_INLINE ? lhs : lhs !== undefined && expr.values.includes(lhs);
    }
    case 'compare':
      return compare(expr.op, evaluate(expr.lhs, context), evaluate(expr.rhs, context));
    case 'logic': {
      const lhs = evaluate(expr.lhs, context);
      if (lhs === NOT_INLINE) return lhs;
      if (expr.op === 'and' ? !isTruthy(lhs) : isTruthy(lhs)) return expr.op === 'or';
      const rhs = evaluate(expr.rhs, context);
      return rhs === NOT_INLINE ? rhs : isTruthy(rhs);
    }
  }
}

/**
 * Whether `context` passes an inline filter, as JSONata's truthiness reads the filter's value; NOT_INLINE when the
 * event holds something only JSONata can judge (the caller then asks the sandbox).
 *
 * @example passesInline(planFilter('trigger.data.amount > 10').inline!, { trigger: { data: { amount: 20 } } }) // true
 */
export function passesInline(expr: InlineExpr, context: unknown): boolean | typeof NOT_INLINE {
  const value = evaluate(expr, context);
  return value === NOT_INLINE ? value : isTruthy(value);
}
