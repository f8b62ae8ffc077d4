import { ambiguousProviderFields, toCanonicalFields, toProviderFields } from '../../core/gateway/schemaMap';

const map = { playerId: 'customer_id', firstName: 'given_name', amount: 'amount_minor' };

describe('schemaMap translation', () => {
  it('renames keys at any depth, inside arrays too, and leaves values and unmapped keys alone', () => {
    const canonical = { playerId: 'p1', extra: 'playerId', profile: { firstName: 'Ada' }, items: [{ amount: 5 }, 7, null] };
    const provider = toProviderFields(canonical, map);
    expect(provider).toEqual({ customer_id: 'p1', extra: 'playerId', profile: { given_name: 'Ada' }, items: [{ amount_minor: 5 }, 7, null] });
    expect(toCanonicalFields(provider, map)).toEqual(canonical);
  });

  it('passes primitives and null through', () => {
    expect(toProviderFields('text', map)).toBe('text');
    expect(toCanonicalFields(null, map)).toBeNull();
    expect(toCanonicalFields([1, 2], map)).toEqual([1, 2]);
  });

  it('keeps a "__proto__" key as data instead of changing the prototype', () => {
    const translated = toProviderFields(JSON.parse('{"__proto__": {"polluted": true}, "firstName": "x"}'), map) as Record<string, unknown>;
    expect(Object.getPrototypeOf(translated)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(translated)).toEqual(['__proto__', 'given_name']);
  });

  it('reports provider fields used twice', () => {
    expect(ambiguousProviderFields({ a: 'x', b: 'x', c: 'y' })).toEqual(['x']);
    expect(ambiguousProviderFields(map)).toEqual([]);
  });
});
