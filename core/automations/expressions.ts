import type jsonata from 'jsonata';
import { holdsPayloadRef, isPayloadRef } from '../payloadRef';

/**
 * JSONata expressions and `{{ }}` templates of workflow nodes (DESIGN.md "Workflows"). This module runs inside the
 * Temporal workflow sandbox as well as in the API, so it imports jsonata only: no Node builtins, no I/O.
 */

/** What every expression of a run sees as its input document (DESIGN.md "Resolved ambiguities": Run context). */
export interface RunContext {
  trigger: unknown;
  nodes: Record<string, unknown>;
  workflow: { id: string; name: string; version: number };
  run: { id: string; source: string };
  /**
   * The run's player, when the run is about one and a step reads `player` (docs/workflows.md "The player in a run"):
   * in workflow code a sealed reference (./playerRef.ts), opened into the snapshot's fields by the activity that
   * evaluates; absent otherwise.
   */
  player?: unknown;
}

/**
 * Guardrails against runaway expressions. The step budget is what stops an endless (tail-recursive) loop inside the
 * workflow sandbox, where the clock stands still during a workflow task and the timeout never bites.
 */
const LIMITS = { stack: 500, sequence: 100_000, timeout: 5_000 };
const MAX_STEPS = 100_000;
const ENTRY = Symbol.for('jsonata.__evaluate_entry');

/** Counts evaluation steps on the per-evaluation base frame, so cached expressions share no state between runs. */
function countStep(_node: unknown, _input: unknown, environment: { base: { steps?: number } }): void {
  environment.base.steps = (environment.base.steps ?? 0) + 1;
  if (environment.base.steps > MAX_STEPS) throw new Error(`Evaluation exceeded ${MAX_STEPS} steps. Check for an infinite loop`);
}
let jsonataModule: typeof jsonata | undefined;

/**
 * jsonata, loaded on the first compile. Workflow code evaluates its imports once per run, and in a run, where templates
 * of plain paths are filled without it (core/automations/plainPaths.ts) and any other expression goes to the sandbox,
 * jsonata serves only the replay of runs recorded before those patches: imported at the top, every run paid for it
 * (`npm run bench:workflow-cost`). A process that evaluates expressions all its life (the sandbox) calls it at its
 * start, so the first expression it runs — inside its time budget — does not pay for loading it.
 */
export function loadJsonata(): typeof jsonata {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- evaluated on first use, see above
  return (jsonataModule ??= require('jsonata') as typeof jsonata);
}

const CACHE_SIZE = 500;
const cache = new Map<string, jsonata.Expression>();

const TEMPLATE = /\{\{([\s\S]*?)\}\}/g;

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return String(error);
}

function quoted(source: string): string {
  const text = source.trim();
  return JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}...` : text);
}

function compile(source: string): jsonata.Expression {
  const cached = cache.get(source);
  if (cached) {
    cache.delete(source);
    cache.set(source, cached);
    return cached;
  }
  const expression = loadJsonata()(source, LIMITS);
  expression.assign(ENTRY as unknown as string, countStep);
  cache.set(source, expression);
  if (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return expression;
}

/**
 * Why a JSONata source does not compile, or null when it does; used to refuse a definition before it is stored.
 *
 * @example compileProblem('trigger.data.amount > 100') // null
 * @example compileProblem('amount >') // 'Unexpected end of expression'
 */
export function compileProblem(source: string): string | null {
  try {
    compile(source);
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

/**
 * The `{{ … }}` expressions embedded in a string, in order (their inner text, untrimmed). An expression cannot contain
 * `}}` itself; write `} }` inside object constructors.
 *
 * @example templateExpressions('Hi {{ trigger.name }}, {{ $count(nodes.x) }}') // [' trigger.name ', ' $count(nodes.x) ']
 */
export function templateExpressions(text: string): string[] {
  return [...text.matchAll(TEMPLATE)].map((match) => match[1] ?? '');
}

/** True when a string has a `{{` that no `}}` closes: a template the author most likely mistyped. */
export function hasUnclosedTemplate(text: string): boolean {
  return text.replace(TEMPLATE, '').includes('{{');
}

function isJsonataFunction(value: object): boolean {
  const marks = value as { _jsonata_function?: unknown; _jsonata_lambda?: unknown };
  return marks._jsonata_function === true || marks._jsonata_lambda === true;
}

/** JSONata results as plain JSON values: sequences become arrays, functions disappear (they cannot be stored). */
function plain(value: unknown): unknown {
  if (typeof value === 'function') return undefined;
  if (Array.isArray(value)) return value.map((item) => plain(item) ?? null);
  if (typeof value !== 'object' || value === null) return value;
  if (isJsonataFunction(value)) return undefined;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const converted = plain(inner);
    if (converted === undefined) continue;
    Object.defineProperty(copy, key, { value: converted, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/**
 * Evaluates a JSONata expression over the run context. Compiled expressions are cached (bounded) because the same
 * definition is evaluated run after run. Fails with an Error naming the expression.
 *
 * @example await evaluate('trigger.amount * 2', context) // 200 when trigger is { amount: 100 }
 */
export async function evaluate(source: string, context: RunContext): Promise<unknown> {
  let expression: jsonata.Expression;
  try {
    expression = compile(source);
  } catch (error) {
    throw new Error(`Invalid expression ${quoted(source)}: ${messageOf(error)}`, { cause: error });
  }
  try {
    return plain(await expression.evaluate(context));
  } catch (error) {
    throw new Error(`Expression ${quoted(source)} failed: ${messageOf(error)}`, { cause: error });
  }
}

function wholeExpression(text: string): string | null {
  const matches = [...text.matchAll(TEMPLATE)];
  const only = matches[0];
  if (matches.length !== 1 || !only) return null;
  const before = text.slice(0, only.index);
  const after = text.slice(only.index + only[0].length);
  return before.trim() === '' && after.trim() === '' ? (only[1] ?? '') : null;
}

async function renderString(text: string, context: RunContext): Promise<unknown> {
  const whole = wholeExpression(text);
  if (whole !== null) return (await evaluate(whole, context)) ?? null;
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(TEMPLATE)) {
    parts.push(text.slice(last, match.index));
    const value = await evaluate(match[1] ?? '', context);
    parts.push(value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

/** Called with each templated field's path (`params.body.text`) before its templates are evaluated. */
export type FieldVisitor = (field: string) => void;

/**
 * Fills the `{{ }}` templates of node params at any depth before a node runs. A string that is a single template keeps
 * the value's type (a number stays a number, undefined becomes null); templates inside text are interpolated
 * (undefined → '', other non-strings as JSON). Object keys are never templated. `onField` hears the path of each
 * templated string before it is evaluated, so a sandbox that stops an evaluation can name the field it was in.
 *
 * @example await renderParams({ amount: '{{ trigger.amount }}', note: 'paid {{ trigger.amount }}' }, context)
 * // { amount: 100, note: 'paid 100' }
 */
export async function renderParams(value: unknown, context: RunContext, field = 'params', onField?: FieldVisitor): Promise<unknown> {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return value;
    onField?.(field);
    return renderString(value, context);
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const [index, item] of value.entries()) items.push(await renderParams(item, context, `${field}[${index}]`, onField));
    return items;
  }
  if (typeof value !== 'object' || value === null) return value;
  const rendered: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const next = await renderParams(inner, context, `${field}.${key}`, onField);
    Object.defineProperty(rendered, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return rendered;
}

/**
 * True when any string at any depth of `value` holds a `{{ }}` template — or may: a reference to a value kept out of
 * the workflow (`core/payloadRef.ts`) is rendered too. Only then do params need rendering.
 */
export function hasTemplates(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (isPayloadRef(value)) return true;
  if (Array.isArray(value)) return value.some(hasTemplates);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasTemplates);
  return false;
}

/** Every JSONata source in `value`: the whole string for a condition, the inside of each `{{ }}` otherwise. */
function sourcesIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(...templateExpressions(value));
  else if (Array.isArray(value)) for (const item of value) sourcesIn(item, found);
  else if (typeof value === 'object' && value !== null) for (const inner of Object.values(value)) sourcesIn(inner, found);
  return found;
}

/** `nodes` used other than as `nodes.<id>`, or the context itself (`$`, `$$`): every node output may be read. */
const READS_ALL_NODES = /\bnodes\b(?!\s*\.\s*[A-Za-z0-9_-])|\$(?![A-Za-z0-9_])/;

/**
 * `player` read at the root of the run context: not a field of something else (`trigger.data.player`), not part of a
 * longer name (`player_id`, `$player`). A superset is harmless; a miss is not.
 */
export const READS_PLAYER = /(?<![\w$.])player(?![\w$])/;

/**
 * The part of a run context that `expression` (a condition) or the templates of `params` can read: the trigger,
 * workflow and run, only the node outputs whose id appears in a source — all of them when a source reads `nodes`
 * as a whole or the context root — and the run's player only when a source names `player` (or a param is a reference,
 * unread here). A superset by construction (an id counts wherever its characters appear), so the result of evaluating
 * over it is the result over the whole context; it keeps what crosses into the sandbox small.
 *
 * @example contextFor({ expression: 'nodes.kyc.data.status = "ok"' }, context).nodes // { kyc: … } only
 */
export function contextFor(what: { expression: string } | { params: unknown }, context: RunContext): RunContext {
  const sources = 'expression' in what ? [what.expression] : sourcesIn(what.params);
  if (sources.some((source) => READS_ALL_NODES.test(source))) return context;
  const nodes: Record<string, unknown> = {};
  for (const [id, output] of Object.entries(context.nodes)) {
    if (sources.some((source) => source.includes(id)))
      Object.defineProperty(nodes, id, { value: output, enumerable: true, writable: true, configurable: true });
  }
  const visible: RunContext = { ...context, nodes };
  const mayReadPlayer = sources.some((source) => READS_PLAYER.test(source)) || ('params' in what && holdsPayloadRef(what.params));
  if (visible.player !== undefined && !mayReadPlayer) delete visible.player;
  return visible;
}

/**
 * Whether a condition's result takes the `when: true` branch, with JSONata's `$boolean` semantics (undefined is false):
 * false for null, false, 0, '', empty arrays and objects and functions; an array is true when any member is.
 *
 * @example isTruthy([0, 'x']) // true
 * @example isTruthy({}) // false
 */
export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => isTruthy(item));
  if (typeof value === 'string') return value.length > 0;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'function') return false;
  if (typeof value === 'object') return !isJsonataFunction(value) && Object.keys(value).length > 0;
  return false;
}
