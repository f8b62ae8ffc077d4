/**
 * The most an expression may produce: a condition's value, a node's rendered params (a template that doubles a string
 * twenty times makes 16 MB). No more than the API takes from the same tenant in one request body (`BODY_LIMIT_BYTES`'
 * default), so a run cannot write through a template what the tenant could not send directly.
 */
export const MAX_OUTPUT_BYTES = 10 * 1024 * 1024;

/**
 * About how many bytes `value` takes as JSON — strings and keys by their UTF-16 length, numbers and literals a few
 * bytes — walked without recursion and given up as soon as it passes `limit` (answering a number above it), so
 * measuring a huge value costs no more than reaching the limit.
 *
 * @example jsonSizeOver({ a: 'xx' }, 100) // 9
 */
export function jsonSizeOver(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      for (const inner of item) stack.push(inner);
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      size += 2 + entries.length;
      for (const [key, inner] of entries) {
        size += key.length + 3;
        stack.push(inner);
      }
    } else size += 8;
    if (size > limit) return size;
  }
  return size;
}
