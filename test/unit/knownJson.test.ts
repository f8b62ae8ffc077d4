import { createHash } from 'node:crypto';
import { KNOWN_FIELD_MIN_LENGTH, knownFieldsOf, rememberFields } from '../../core/jsonReadFields';
import { jsonbParam, jsonLength, jsonText, knownJson } from '../../core/knownJson';
import { stableSha256Hex, stableStringify } from '../../core/stableJson';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** A string in JSON with escapes and text in several scripts. */
const pad = JSON.stringify('é✓😀"\\'.repeat(KNOWN_FIELD_MIN_LENGTH));
const TEXT = `{"eventType":"session","data":{"z":1,"__proto__":{"p":1},"a":[${pad},1e300,-0,5e-324]},"small":{"b":1},"list":[{"y":2,"x":${pad}}],"s":${pad}}`;

/** A body as the API's thread gets it from a worker: parsed, its large fields' texts remembered. */
function received(text: string): Record<string, unknown> {
  const fields = knownFieldsOf(JSON.parse(text));
  const value = JSON.parse(text) as Record<string, unknown>;
  rememberFields(value, fields);
  return value;
}

describe('texts a body worker wrote (core/knownJson.ts, core/jsonReadFields.ts)', () => {
  it('are remembered for the large objects and arrays at the top level only', () => {
    const body = received(TEXT);
    expect(knownFieldsOf(JSON.parse(TEXT)).map((field) => field.key)).toEqual(['data', 'list']);
    expect(knownJson(body.data)).toBeDefined();
    expect(knownJson(body.list)).toBeDefined();
    expect(knownJson(body.small)).toBeUndefined();
    expect(knownJson(body)).toBeUndefined();
  });

  it('give the same length, text and JSONB as serialising the value', () => {
    const { data } = received(TEXT);
    expect(jsonLength(data)).toBe(JSON.stringify(data).length);
    expect(JSON.parse(jsonText(data))).toEqual(JSON.parse(JSON.stringify(data)));
    expect(jsonText(data)).toBe(stableStringify(data));
    const param = jsonbParam(data) as Buffer;
    expect([param[0], param.toString('utf8', 1)]).toEqual([1, stableStringify(data)]);
    expect(jsonbParam({ a: 1 })).toBe('{"a":1}');
  });

  it('hash to the request hash of the whole string, whichever parts are known', () => {
    const body = received(TEXT);
    const prefix = 'POST /entities/p-1/events\n';
    const expected = sha(prefix + stableStringify(body));
    expect(stableSha256Hex(prefix, body)).toBe(expected);
    // As zod hands it on: a new object holding the same field values.
    expect(stableSha256Hex(prefix, { eventType: body.eventType, data: body.data })).toBe(
      sha(prefix + stableStringify({ eventType: body.eventType, data: body.data })),
    );
    expect(stableSha256Hex(prefix, body.data)).toBe(sha(prefix + stableStringify(body.data)));
    for (const other of [null, 'x', [1, { b: 2 }], {}, { u: undefined, a: 1 }])
      expect(stableSha256Hex(prefix, other)).toBe(sha(prefix + stableStringify(other)));
  });
});
