import { Keyring } from './crypto';
import type { InternalEvent } from './events';
import type { TemplateSchema } from './templates';

/** Binds a PII ciphertext to its operator, entity and field, so it cannot be replayed elsewhere. */
function contextOf(operatorId: string, externalId: string, field: string): string {
  return `${operatorId}:${externalId}:${field}`;
}

/**
 * Seals the template's PII fields of an entity's data; other fields stay as given.
 *
 * @example sealPii(keyring, schema, op, 'player', 'p-1', { first_name: 'Ada', country: 'GB' })
 * // { first_name: 'enc:v1:…', country: 'GB' }
 */
export function sealPii(
  keyring: Keyring,
  template: TemplateSchema,
  operatorId: string,
  entityType: string,
  externalId: string,
  data: Record<string, unknown>,
): Record<string, unknown> {
  const fields = template.pii_fields[entityType] ?? [];
  if (fields.length === 0) return data;
  const sealed: Record<string, unknown> = { ...data };
  for (const field of fields) {
    const value = data[field];
    if (value !== undefined && value !== null) sealed[field] = keyring.encryptJson(value, contextOf(operatorId, externalId, field));
  }
  return sealed;
}

/** Opens every sealed field of an entity's data (single-entity reads only). */
export function openPii(keyring: Keyring, operatorId: string, externalId: string, data: Record<string, unknown>): Record<string, unknown> {
  // fromEntries defines each field, so a `__proto__` field stays data rather than becoming the copy's prototype.
  return Object.fromEntries(
    Object.entries(data).map(([field, value]) => [
      field,
      Keyring.isCiphertext(value) ? keyring.decryptJson(value, contextOf(operatorId, externalId, field)) : value,
    ]),
  );
}

/**
 * An entity event as an automation's trigger sees it: the entity's sealed fields opened, so a workflow on
 * `entity.created` can use `{{ trigger.data.email }}`. Safe because everything the run keeps is sealed
 * again (run records by `core/runSeal.ts`, Temporal by the payload codec). Throws when a field cannot be
 * opened (an unknown key), so the caller decides what a run gets then.
 *
 * @example openEventPii(keyring, event) // { …event, data: { email: 'ada@example.com', country: 'GB' } }
 */
export function openEventPii(keyring: Keyring, event: InternalEvent): InternalEvent {
  const { entity, data } = event;
  if (!entity || data === null || typeof data !== 'object' || Array.isArray(data)) return event;
  if (!Object.values(data).some((value) => Keyring.isCiphertext(value))) return event;
  return { ...event, data: openPii(keyring, event.operatorId, entity.externalId, data as Record<string, unknown>) };
}
