import jsonata from 'jsonata';
import { check, type Diagnostics } from 'recheck';
import { templateExpressions } from '../core/automations/expressions';
import { isWholeExpression } from '../core/automations/nodes';
import type { AutomationNode } from '../core/automations/types';

export interface RegexProblem {
  field: string;
  message: string;
}

/** Past this, a definition's regexes are not all checked here: the sandbox's budget still bounds every one. */
const MAX_CHECKED = 50;
/** recheck's own limit per regex; a check that runs out says `unknown`, which is let through (the budget stays). */
const CHECK_TIMEOUT_MS = 2_000;
const CACHE_SIZE = 1_000;
const verdicts = new Map<string, Promise<string | null>>();

/** Where JSONata sits in a node: the whole value for a condition or a filter (`isWholeExpression`), each `{{ }}` anywhere else. */
function sourcesOf(node: AutomationNode, index: number): Array<{ field: string; source: string }> {
  const found: Array<{ field: string; source: string }> = [];
  const walk = (value: unknown, field: string, whole: boolean) => {
    if (typeof value === 'string') {
      if (whole) found.push({ field, source: value });
      else for (const source of templateExpressions(value)) found.push({ field, source });
    } else if (Array.isArray(value)) value.forEach((item, at) => walk(item, `${field}[${at}]`, false));
    else if (typeof value === 'object' && value !== null) for (const [key, inner] of Object.entries(value)) walk(inner, `${field}.${key}`, false);
  };
  for (const [key, value] of Object.entries(node.params)) {
    const whole = isWholeExpression(node.type, key);
    walk(value, `nodes[${index}].params.${key}`, whole);
  }
  return found;
}

/** The regex literals of a JSONata source (`/…/` in `$match`, `$contains`, `$replace`, `$split`…), found in its syntax tree. */
function regexesIn(source: string): RegExp[] {
  let ast: unknown;
  try {
    ast = jsonata(source).ast();
  } catch {
    return [];
  }
  const found: RegExp[] = [];
  const walk = (node: unknown, depth: number) => {
    if (depth > 200 || typeof node !== 'object' || node === null) return;
    const candidate = node as { type?: unknown; value?: unknown };
    if (candidate.type === 'regex' && candidate.value instanceof RegExp) found.push(candidate.value);
    for (const child of Object.values(node)) walk(child, depth + 1);
  };
  walk(ast, 0);
  return found;
}

function verdictOf(diagnostics: Diagnostics): string | null {
  if (diagnostics.status !== 'vulnerable') return null;
  const { complexity, attack } = diagnostics;
  if (complexity.type === 'polynomial' && complexity.degree < 3) return null;
  const growth = complexity.type === 'exponential' ? 'exponential' : `polynomial (degree ${complexity.degree})`;
  const sample = JSON.stringify(attack.pattern.length > 60 ? `${attack.pattern.slice(0, 57)}...` : attack.pattern);
  return `regular expression /${diagnostics.source}/ can take ${growth} time to fail on inputs such as ${sample}; rewrite it without nested or overlapping repetition`;
}

function verdict(regex: RegExp): Promise<string | null> {
  const flags = regex.flags.replace(/[gy]/g, '');
  const key = `${flags}/${regex.source}`;
  const cached = verdicts.get(key);
  if (cached) return cached;
  const pending = check(regex.source, flags, { timeout: CHECK_TIMEOUT_MS }).then(verdictOf, () => null);
  verdicts.set(key, pending);
  if (verdicts.size > CACHE_SIZE) verdicts.delete(verdicts.keys().next().value!);
  return pending;
}

/**
 * Regexes in a definition's expressions that backtrack catastrophically (exponential, or polynomial of degree 3 and
 * up), found by recheck before the definition is stored — a first line that names the field; the sandbox's budget is
 * what guarantees a run cannot stall on the ones it misses (a regex built at run time, a check that timed out).
 * recheck runs its native checker in a process of its own, so a check never holds up the API's thread.
 *
 * @example await regexProblems([{ id: 'c', type: 'condition', params: { expression: '$contains(x, /^(a+)+$/)' } }])
 * // [{ field: 'nodes[0].params.expression', message: 'regular expression /^(a+)+$/ can take exponential time …' }]
 */
export async function regexProblems(nodes: AutomationNode[]): Promise<RegexProblem[]> {
  const checks: Array<{ field: string; regex: RegExp }> = [];
  nodes.forEach((node, index) => {
    for (const { field, source } of sourcesOf(node, index)) for (const regex of regexesIn(source)) checks.push({ field, regex });
  });
  const problems = await Promise.all(
    checks.slice(0, MAX_CHECKED).map(async ({ field, regex }) => {
      const message = await verdict(regex);
      return message ? { field, message } : null;
    }),
  );
  return problems.filter((problem): problem is RegexProblem => problem !== null);
}
