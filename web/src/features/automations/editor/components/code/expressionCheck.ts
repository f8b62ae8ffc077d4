import type { FieldType } from './fieldTypes';
import type { Field } from './scope';

/** Something the preview says about an expression beside its value: a name it does not know, or a comparison of two types. */
export interface ExpressionWarning {
  kind: 'unknown_field' | 'type_mismatch';
  /** The path as written, `trigger.data.ammount`. */
  path: string;
  message: string;
}

/** A path the expression reads and whether it is a money field (for the preview's unit hint). */
export interface ReadPath {
  path: string;
  field?: Field;
}

type Token =
  | { kind: 'name'; text: string; start: number }
  | { kind: 'string'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'op'; text: string }
  | { kind: 'open' | 'close'; text: string };

/** JSONata's words that look like names but are not paths. */
const WORDS = new Set(['and', 'or', 'in', 'true', 'false', 'null', 'function']);
const COMPARISONS = new Set(['=', '!=', '<', '<=', '>', '>=']);
/** Roots a run may hold that completions need not list: a wait's arriving `event`, the run's `player`. */
const OPEN_ROOTS = new Set(['event', 'player']);

/** The expressions of a template's `{{ }}`; a condition is one expression. */
function expressionsOf(text: string, kind: 'condition' | 'template'): string[] {
  if (kind === 'condition') return [text];
  return [...text.matchAll(/\{\{([\s\S]*?)\}\}/g)].map((match) => match[1] ?? '');
}

/** JSONata split into the tokens the checks need; comments and whitespace dropped. */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const space = /^(\s+|\/\*[\s\S]*?\*\/)/.exec(rest);
    const quoted = /^("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/.exec(rest);
    const backticked = /^`([^`]*)`/.exec(rest);
    const number = /^\d+(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    const name = /^\$?[A-Za-z_][\w]*/.exec(rest);
    const op = /^(!=|<=|>=|:=|~>|\.\.|[=<>.,;:?&+\-*/%!^|@#])/.exec(rest);
    if (space) at += space[0].length;
    else if (quoted) {
      tokens.push({ kind: 'string', text: quoted[0].slice(1, -1) });
      at += quoted[0].length;
    } else if (backticked) {
      tokens.push({ kind: 'name', text: backticked[1] ?? '', start: at });
      at += backticked[0].length;
    } else if (number) {
      tokens.push({ kind: 'number', text: number[0] });
      at += number[0].length;
    } else if (name) {
      tokens.push({ kind: 'name', text: name[0], start: at });
      at += name[0].length;
    } else if (op) {
      tokens.push({ kind: 'op', text: op[0] });
      at += op[0].length;
    } else {
      const char = text[at] ?? '';
      tokens.push({ kind: '([{'.includes(char) ? 'open' : ')]}'.includes(char) ? 'close' : 'op', text: char });
      at += 1;
    }
  }
  return tokens;
}

/** The closest known name to a misspelt one (at most two edits away), for "did you mean". */
function closest(name: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, index) => index);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length]!;
  };
  const ranked = known.map((candidate) => ({ candidate, cost: distance(name.toLowerCase(), candidate.toLowerCase()) })).sort((a, b) => a.cost - b.cost);
  const best = ranked[0];
  return best && best.cost <= Math.min(2, Math.floor(name.length / 2)) ? best.candidate : undefined;
}

interface Walked {
  path: string;
  names: string[];
  /** The field the whole path ends on, when every name was known. */
  field?: Field;
  unknown?: { at: number; known: readonly string[] };
  end: number;
}

/**
 * Walks one path from the run context's roots: each name must be among the known names under the previous one, as
 * long as those are known (a leaf such as an HTTP body or an unknown event's `data` ends the check).
 */
function walk(tokens: Token[], start: number, roots: Field[]): Walked {
  const names: string[] = [];
  let index = start;
  for (;;) {
    const token = tokens[index];
    if (token?.kind !== 'name') break;
    names.push(token.text);
    index += 1;
    if (tokens[index]?.kind === 'op' && tokens[index]?.text === '.' && tokens[index + 1]?.kind === 'name') index += 1;
    else break;
  }
  const walked: Walked = { path: names.join('.'), names, end: index };
  let level: Field[] | undefined = roots;
  let field: Field | undefined;
  for (const [at, name] of names.entries()) {
    if (!level || level.length === 0) return walked;
    field = level.find((candidate) => candidate.name === name);
    if (!field) return { ...walked, unknown: { at, known: level.map((candidate) => candidate.name) } };
    level = field.fields;
  }
  return { ...walked, ...(field ? { field } : {}) };
}

const literalType = (token: Token | undefined): FieldType | undefined => {
  if (token?.kind === 'string') return 'string';
  if (token?.kind === 'number') return 'number';
  if (token?.kind === 'name' && (token.text === 'true' || token.text === 'false')) return 'boolean';
  return undefined;
};

const TYPE_WORD: Record<FieldType, string> = { number: 'a number', string: 'text', boolean: 'true or false' };

/** What the comparison around a typed field would do with a literal of another type. */
function mismatch(path: string, field: Field, op: string, literal: Token): ExpressionWarning | null {
  const type = literalType(literal);
  if (!field.type || !type || type === field.type) return null;
  const shown = literal.kind === 'string' ? `"${literal.text}"` : literal.text;
  const outcome = op === '=' ? 'it is never equal' : op === '!=' ? 'it always differs' : 'the run fails with EXPRESSION_ERROR';
  const unit = field.money
    ? ` (in minor units: compare with a number such as ${literal.kind === 'string' && /^\d+$/.test(literal.text) ? literal.text : '5000'})`
    : '';
  return {
    kind: 'type_mismatch',
    path,
    message: `${path} is ${TYPE_WORD[field.type]}${unit}, compared with ${TYPE_WORD[type]} ${shown}: ${outcome}`,
  };
}

/**
 * The warnings of a condition or a template against the names completions offer (`contextFields`): each path read from
 * the run context whose name is not known where its parent's names are (`trigger.data.ammount`, "did you mean
 * amount"), and each comparison of a typed field with a literal of another type (`trigger.data.amount = "5000"`).
 * Names inside `[ ]` and `{ }` are left alone (they are read from the value being filtered), as are `$` variables and
 * roots that are not the run context's.
 *
 * @example expressionWarnings(fields, 'trigger.data.ammount > 100', 'condition')[0].message
 * // 'Unknown field trigger.data.ammount: did you mean trigger.data.amount? …'
 */
export function expressionWarnings(roots: Field[], text: string, kind: 'condition' | 'template'): ExpressionWarning[] {
  const warnings: ExpressionWarning[] = [];
  for (const expression of expressionsOf(text, kind)) {
    const tokens = tokensOf(expression);
    let depth = 0;
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!;
      if (token.kind === 'open') depth += token.text === '(' ? 0 : 1;
      if (token.kind === 'close') depth = Math.max(0, depth - (token.text === ')' ? 0 : 1));
      const before = tokens[index - 1];
      const startsPath = token.kind === 'name' && !token.text.startsWith('$') && !WORDS.has(token.text) && !(before?.kind === 'op' && before.text === '.');
      if (startsPath && depth === 0) {
        const walked = walk(tokens, index, roots);
        if (walked.unknown && !(walked.unknown.at === 0 && OPEN_ROOTS.has(walked.names[0]!))) {
          const parent = walked.names.slice(0, walked.unknown.at);
          const suggestion = closest(walked.names[walked.unknown.at]!, walked.unknown.known);
          const where = parent.length === 0 ? 'the run context' : parent.join('.');
          const hint = suggestion ? `did you mean ${[...parent, suggestion].join('.')}? ` : '';
          warnings.push({
            kind: 'unknown_field',
            path: walked.path,
            message: `Unknown field ${walked.names.slice(0, walked.unknown.at + 1).join('.')}: ${hint}${where} has ${walked.unknown.known.join(', ')}`,
          });
        }
        const op = tokens[walked.end];
        if (walked.field && op?.kind === 'op' && COMPARISONS.has(op.text)) {
          const found = mismatch(walked.path, walked.field, op.text, tokens[walked.end + 1]!);
          if (found) warnings.push(found);
        }
        if (walked.field && before?.kind === 'op' && COMPARISONS.has(before.text) && literalType(tokens[index - 2])) {
          const found = mismatch(walked.path, walked.field, before.text, tokens[index - 2]!);
          if (found) warnings.push(found);
        }
        index = walked.end - 1;
      }
    }
  }
  return warnings.filter((warning, index) => warnings.findIndex((other) => other.message === warning.message) === index);
}

/** The money fields an expression reads (`trigger.data.amount`), for the preview's unit hint. */
export function moneyPaths(roots: Field[], text: string, kind: 'condition' | 'template'): string[] {
  const paths = new Set<string>();
  for (const expression of expressionsOf(text, kind)) {
    const tokens = tokensOf(expression);
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!;
      const before = tokens[index - 1];
      if (token.kind !== 'name' || token.text.startsWith('$') || (before?.kind === 'op' && before.text === '.')) continue;
      const walked = walk(tokens, index, roots);
      if (walked.field?.money) paths.add(walked.path);
      index = Math.max(index, walked.end - 1);
    }
  }
  return [...paths];
}
