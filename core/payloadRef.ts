/**
 * The shape of a reference to a value kept out of Temporal (`temporal/payloadRefs.ts`): `{ "$payloadRef": "<id>" }`.
 * Workflow code passes references along without reading them; the activity that receives one gets the value.
 */
export const PAYLOAD_REF_KEY = '$payloadRef';

/** True for a reference object (exactly one key, `$payloadRef`, naming the stored value). */
export function isPayloadRef(value: unknown): value is { [PAYLOAD_REF_KEY]: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === PAYLOAD_REF_KEY && typeof (value as Record<string, unknown>)[PAYLOAD_REF_KEY] === 'string';
}

/** Whether a reference sits anywhere in `value` (activity arguments: small, since workflows only hold references). */
export function holdsPayloadRef(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (isPayloadRef(value)) return true;
  return (Array.isArray(value) ? value : Object.values(value)).some(holdsPayloadRef);
}

/**
 * Where an activity that reads its references itself (the end step of a run, which stores large values one at a time)
 * finds its reader: a hidden property of its first argument, set by the worker's interceptor
 * (`worker/payloadRefInterceptor.ts`) instead of resolving every reference before the activity runs.
 */
const READ_REFS = Symbol.for('platform.readRefs');

export type RefReader = (value: unknown) => Promise<unknown>;

/** `args` with `read` hidden on the first argument (a copy): what {@link refReaderOf} finds. */
export function withRefReader(args: unknown[], read: RefReader): unknown[] {
  const [first, ...rest] = args;
  if (typeof first !== 'object' || first === null) return args;
  const copy = { ...first };
  Object.defineProperty(copy, READ_REFS, { value: read, enumerable: false });
  return [copy, ...rest];
}

/** The reader the interceptor hid on an activity's first argument; undefined when its references were resolved already. */
export function refReaderOf(input: object): RefReader | undefined {
  return (input as { [READ_REFS]?: RefReader })[READ_REFS];
}
