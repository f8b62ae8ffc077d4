import { isPayloadRef } from '../payloadRef';
import type { RunContext } from './expressions';
import { isSealedPlayer } from './playerRef';

/**
 * Templates that only name a value of the run context — `{{ trigger.playerId }}`, `{{ nodes.kyc.status }}` — filled
 * without JSONata. Most templates are such paths, and sending each through the expression sandbox costs a run a local
 * activity and an IPC round trip (docs/production.md, MCP `tools/call`). A plain path is not an expression a tenant can
 * make expensive: it is a bounded walk over a context the run already holds, so it runs where the run runs.
 *
 * The walk answers only where JSONata would answer the same: a path of plain names through plain objects to a
 * string, number, boolean, null or nothing. Anything else — an array on the way (JSONata maps over it), an object at
 * the end, a reference to a value kept out of the workflow (the run's sealed player among them), a name JSONata reads
 * otherwise — answers {@link NOT_PLAIN} and the caller evaluates in the sandbox as before. So do params whose filled values add up to more than
 * {@link MAX_FILLED_CHARS}: a template repeating a large value must not multiply it in the workflow isolate every
 * tenant's runs share, where the sandbox's heap limit does not apply and its result is not turned into references.
 */

/** The answer for params that have a template the walk cannot fill: evaluate them in the sandbox. */
export const NOT_PLAIN = Symbol('not a plain path');

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Words JSONata reads as operators or literals, and names every object inherits. */
const RESERVED = new Set(['and', 'or', 'in', 'true', 'false', 'null', 'function', '__proto__', 'constructor', 'prototype']);
const MAX_SEGMENTS = 32;
/** The characters of string values one node's params may fill in the run; past it, the sandbox fills them. */
export const MAX_FILLED_CHARS = 16 * 1024;
const TEMPLATE = /\{\{([\s\S]*?)\}\}/g;

type Scalar = string | number | boolean | null | undefined;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !isPayloadRef(value) && !isSealedPlayer(value);

/** The scalar a plain path names in the context, undefined for a missing field, or NOT_PLAIN. */
function lookup(source: string, context: RunContext): Scalar | typeof NOT_PLAIN {
  const names = source.trim().split('.');
  if (names.length > MAX_SEGMENTS || names.some((name) => !NAME.test(name) || RESERVED.has(name))) return NOT_PLAIN;
  let value: unknown = context;
  for (const name of names) {
    if (!isPlainObject(value)) return NOT_PLAIN;
    value = Object.hasOwn(value, name) ? value[name] : undefined;
    if (value === undefined) return undefined;
  }
  if (value === null || ['string', 'boolean'].includes(typeof value)) return value as Scalar;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return NOT_PLAIN;
}

/** What is left of one params' {@link MAX_FILLED_CHARS}. */
interface Budget {
  chars: number;
}

/** `lookup`, charged to `budget`: NOT_PLAIN once the strings it filled exceed it. */
function filled(source: string, context: RunContext, budget: Budget): Scalar | typeof NOT_PLAIN {
  const value = lookup(source, context);
  if (typeof value === 'string') budget.chars -= value.length;
  return budget.chars < 0 ? NOT_PLAIN : value;
}

function renderString(text: string, context: RunContext, budget: Budget): unknown {
  const matches = [...text.matchAll(TEMPLATE)];
  if (matches.length === 0) return text;
  const only = matches[0]!;
  if (matches.length === 1 && text.slice(0, only.index).trim() === '' && text.slice(only.index + only[0].length).trim() === '') {
    const value = filled(only[1] ?? '', context, budget);
    return value === NOT_PLAIN ? NOT_PLAIN : (value ?? null);
  }
  let rendered = '';
  let last = 0;
  for (const match of matches) {
    const value = filled(match[1] ?? '', context, budget);
    if (value === NOT_PLAIN) return NOT_PLAIN;
    rendered += text.slice(last, match.index) + (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
    last = match.index + match[0].length;
  }
  return rendered + text.slice(last);
}

/**
 * Node params with their `{{ }}` templates filled as `renderParams` (./expressions.ts) fills them, when every template
 * is a plain path to a scalar and their string values stay within {@link MAX_FILLED_CHARS}; otherwise {@link NOT_PLAIN}.
 *
 * @example renderPlainPaths({ url: 'https://kyc.example/p/{{ trigger.playerId }}' }, context) // { url: 'https://kyc.example/p/p-1' }
 * @example renderPlainPaths({ n: '{{ $count(nodes.x) }}' }, context) // NOT_PLAIN
 */
export function renderPlainPaths(value: unknown, context: RunContext): unknown {
  return render(value, context, { chars: MAX_FILLED_CHARS });
}

function render(value: unknown, context: RunContext, budget: Budget): unknown {
  if (typeof value === 'string') return value.includes('{{') ? renderString(value, context, budget) : value;
  if (isPayloadRef(value)) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const rendered = render(item, context, budget);
      if (rendered === NOT_PLAIN) return NOT_PLAIN;
      items.push(rendered);
    }
    return items;
  }
  if (typeof value !== 'object' || value === null) return value;
  const rendered: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const next = render(inner, context, budget);
    if (next === NOT_PLAIN) return NOT_PLAIN;
    Object.defineProperty(rendered, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return rendered;
}

/** A condition that is a plain path to a scalar, as `isTruthy` reads it; otherwise {@link NOT_PLAIN}. */
export function plainPathValue(expression: string, context: RunContext): Scalar | typeof NOT_PLAIN {
  return lookup(expression, context);
}
