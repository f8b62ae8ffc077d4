import { formatValue, parseValue } from '../../../../../components/KeyValueEditor';

/**
 * The text a designer typed for a value field, kept per step and field for as long as the page lives, so that the
 * form shows it again — not a re-formatted copy — when the step is selected again or an undo brings the value back.
 */
const typed = new Map<string, { text: string; value: string }>();
const keyOf = (nodeId: string, field: string) => `${nodeId}\u0000${field}`;

export function rememberTyped(nodeId: string, field: string, text: string, value: unknown): void {
  typed.set(keyOf(nodeId, field), { text, value: JSON.stringify(value ?? null) });
}

/** The text to show for a stored value: as last typed when it still means that value, else objects laid out on lines. */
export function typedText(nodeId: string, field: string, value: unknown): string {
  const kept = typed.get(keyOf(nodeId, field));
  if (kept && kept.value === JSON.stringify(value ?? null)) return kept.text;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value, null, 2);
  return formatValue(value);
}

/** Text that can only be meant as a JSON object or array (a whole `{{ }}` template is not). */
export const looksLikeJson = (text: string): boolean => /^\s*[[{]/.test(text) && !/^\s*\{\{[\s\S]*\}\}\s*$/.test(text);

/** The value a text means, or why it means none: JSON-looking text must parse. */
export function readValue(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (text.trim() === '') return { ok: true, value: undefined };
  if (!looksLikeJson(text)) return { ok: true, value: parseValue(text) };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `Not valid JSON yet (${error instanceof Error ? error.message : String(error)}); the last valid value is kept.` };
  }
}

/** How the hint names a value's kind. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'string' ? 'text' : `a ${typeof value}`;
}
