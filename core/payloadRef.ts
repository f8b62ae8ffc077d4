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
