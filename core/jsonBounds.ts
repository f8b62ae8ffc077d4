/**
 * How deeply a JSON body may nest objects and arrays: 64 levels, the root counting as one. The deepest bodies the API
 * takes legitimately (a workflow definition's node params, an event's data) stay under 20; every consumer of a stored
 * value that walks it by recursion (JSON.stringify, jsonb, zod, the expression sandbox's serialisation, which failed
 * near 4,000 levels) then has a margin of hundreds of frames.
 */
export const JSON_MAX_DEPTH = 64;

/** Where a JSON text breaks a bound: the keys and indexes from the root to the value at fault, and what is wrong. */
export interface JsonBoundsProblem {
  path: Array<string | number>;
  message: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** A number written without an exponent leaves the double's range only past this many characters (1e308 has 309 digits, 1e-324 325). */
const PLAIN_NUMBER_SAFE_LENGTH = 300;

const isNumberCharacter = (code: number) =>
  (code >= ZERO && code <= NINE) || code === MINUS || code === PLUS || code === DOT || code === LOWER_E || code === UPPER_E;

/** The index of the quote closing the string that opens at `start`, or the text's length when it is unterminated. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Why a number token cannot be kept as written: JSON.parse turns an overflow into ±Infinity (stored as `null`) and an underflow into 0. */
function numberProblem(token: string): string | undefined {
  const value = Number(token);
  if (Number.isNaN(value)) return undefined;
  if (!Number.isFinite(value)) return `is beyond ±${Number.MAX_VALUE}, the largest magnitude a number may have`;
  const mantissa = token.split(/[eE]/)[0] ?? '';
  if (value === 0 && /[1-9]/.test(mantissa)) return `is closer to zero than ${Number.MIN_VALUE}, the smallest magnitude a non-zero number may have`;
  return undefined;
}

/** The number token around the exponent marker at `at`; moves `significant` past it. */
function numberAround(text: string, at: number, significant: RegExp): string {
  let start = at;
  while (start > 0 && isNumberCharacter(text.charCodeAt(start - 1))) start -= 1;
  let end = at + 1;
  while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end += 1;
  significant.lastIndex = end;
  return text.slice(start, end);
}

/** The open containers from the root down: for an array the index of its current item, for an object its current key's quotes. */
class OpenContainers {
  depth = 0;
  private readonly isArray: boolean[] = [];
  private readonly index: number[] = [];
  private readonly keyStart: number[] = [];
  private readonly keyEnd: number[] = [];

  open(isArray: boolean): void {
    this.isArray[this.depth] = isArray;
    this.index[this.depth] = 0;
    this.keyStart[this.depth] = -1;
    this.keyEnd[this.depth] = -1;
    this.depth += 1;
  }

  close(): void {
    if (this.depth > 0) this.depth -= 1;
  }

  nextItem(): void {
    const top = this.depth - 1;
    if (top >= 0 && this.isArray[top]) this.index[top] = (this.index[top] ?? 0) + 1;
  }

  keyAt(start: number, end: number): void {
    const top = this.depth - 1;
    if (top < 0 || this.isArray[top]) return;
    this.keyStart[top] = start;
    this.keyEnd[top] = end;
  }

  path(text: string): Array<string | number> {
    const path: Array<string | number> = [];
    for (let level = 0; level < this.depth; level += 1) {
      path.push(this.isArray[level] ? (this.index[level] ?? 0) : keyText(text, this.keyStart[level] ?? -1, this.keyEnd[level] ?? -1));
    }
    return path;
  }
}

function keyText(text: string, openQuote: number, closeQuote: number): string {
  if (openQuote < 0) return '';
  const quoted = text.slice(openQuote, closeQuote + 1);
  try {
    const key: unknown = JSON.parse(quoted);
    return typeof key === 'string' ? key : quoted;
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * The first place where a JSON text nests deeper than `maxDepth` or holds a number JSON.parse would change (beyond
 * ±1.7976931348623157e308 it becomes ±Infinity, which JSON.stringify writes as `null`; a non-zero below 5e-324
 * becomes 0), or `undefined`. It reads the text once, without recursion and before it is parsed: JSON.parse itself
 * does not overflow on depth, but a 10 MB body of brackets costs it about 3 s of the API's thread, while this scan
 * stops at the first bracket too many. Malformed text is left to JSON.parse, which runs after it.
 *
 * @example findJsonBoundsProblem('{"amount":1e309}', 64) // { path: ['amount'], message: 'is outside the range…' }
 */
export function findJsonBoundsProblem(text: string, maxDepth: number): JsonBoundsProblem | undefined {
  const open = new OpenContainers();
  const significant = /["{}[\],:eE]/g;
  let lastString = -1;
  let lastStringEnd = -1;
  let previous = -1;
  while (significant.test(text)) {
    const at = significant.lastIndex - 1;
    const code = text.charCodeAt(at);
    const problem =
      code === LOWER_E || code === UPPER_E
        ? numberProblem(numberAround(text, at, significant))
        : at - previous > PLAIN_NUMBER_SAFE_LENGTH
          ? numberProblem(text.slice(previous + 1, at).trim())
          : undefined;
    if (problem) return { path: open.path(text), message: problem };
    if (code === QUOTE) {
      lastString = at;
      lastStringEnd = stringEnd(text, at);
      significant.lastIndex = lastStringEnd + 1;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (open.depth >= maxDepth) return { path: open.path(text), message: `nests deeper than ${maxDepth} levels of objects and arrays` };
      open.open(code === OPEN_ARRAY);
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) open.close();
    else if (code === COMMA) open.nextItem();
    else if (code === COLON) open.keyAt(lastString, lastStringEnd);
    previous = significant.lastIndex - 1;
  }
  const problem = text.length - previous > PLAIN_NUMBER_SAFE_LENGTH ? numberProblem(text.slice(previous + 1).trim()) : undefined;
  return problem ? { path: open.path(text), message: problem } : undefined;
}
