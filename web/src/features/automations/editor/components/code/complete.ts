import type { Field } from './scope';

/** JSONata's everyday functions, offered after `$` (`$eval` is left out: it hides an expression from every check). */
export const FUNCTIONS: ReadonlyArray<readonly [name: string, detail: string]> = [
  ['$string', '(value) → text'],
  ['$number', '(text) → number'],
  ['$boolean', '(value) → true/false'],
  ['$exists', '(value) → is it there'],
  ['$not', '(value) → negation'],
  ['$count', '(array) → items'],
  ['$sum', '(array) → total'],
  ['$max', '(array) → largest'],
  ['$min', '(array) → smallest'],
  ['$average', '(array) → mean'],
  ['$round', '(number, digits)'],
  ['$floor', '(number)'],
  ['$ceil', '(number)'],
  ['$abs', '(number)'],
  ['$length', '(text) → characters'],
  ['$substring', '(text, start, length)'],
  ['$uppercase', '(text)'],
  ['$lowercase', '(text)'],
  ['$trim', '(text)'],
  ['$contains', '(text, pattern)'],
  ['$split', '(text, separator)'],
  ['$join', '(array, separator)'],
  ['$replace', '(text, pattern, replacement)'],
  ['$now', '() → ISO timestamp'],
  ['$millis', '() → epoch ms'],
  ['$toMillis', '(timestamp) → epoch ms'],
  ['$fromMillis', '(epoch ms) → timestamp'],
  ['$keys', '(object) → names'],
  ['$lookup', '(object, name)'],
  ['$merge', '(array of objects)'],
  ['$type', '(value) → its type'],
  ['$formatNumber', '(number, picture)'],
];

export interface Suggestion {
  label: string;
  detail: string;
  type: 'variable' | 'property' | 'function';
}

/** A name as JSONata reads it: step ids with `-` need backticks. */
const quoted = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name}\``);

/**
 * What may be typed at the end of `before`: the names under the path being typed (`trigger.data.am` → the event's
 * fields, from `am`), the run context's roots, or JSONata functions after `$`. `from` is where the name being typed
 * starts in `before`; null when the cursor is not on a name.
 *
 * @example complete(fields, 'trigger.data.am') // { from: 13, options: [{ label: 'amount', … }, …] }
 */
export function complete(fields: Field[], before: string): { from: number; options: Suggestion[] } | null {
  const match = /(?:[A-Za-z_$][\w$]*|`[^`]*`)(?:\s*\.\s*(?:[A-Za-z_$][\w$]*|`[^`]*`)?)*$|\$$/.exec(before);
  if (!match) return null;
  const typed = match[0];
  const parts = typed.split('.').map((part) => part.trim().replace(/^`|`$/g, ''));
  const partial = parts.pop() ?? '';
  const from = before.length - typed.slice(typed.lastIndexOf('.') + 1).trimStart().length;
  if (parts.length === 0 && partial.startsWith('$')) {
    return { from: before.length - partial.length, options: FUNCTIONS.map(([label, detail]) => ({ label, detail, type: 'function' })) };
  }
  let level: Field[] | undefined = fields;
  for (const part of parts) level = level?.find((field) => field.name === part)?.fields;
  if (!level || level.length === 0) return null;
  return {
    from,
    options: level.map((field) => ({ label: quoted(field.name), detail: field.detail, type: parts.length === 0 ? 'variable' : 'property' })),
  };
}
