import { findJsonBoundsProblem, JSON_MAX_DEPTH } from '../../core/jsonBounds';

const tooDeep = (depth: number) => `nests deeper than ${depth} levels of objects and arrays`;
const beyond = 'is beyond ±1.7976931348623157e+308, the largest magnitude a number may have';

describe('findJsonBoundsProblem', () => {
  it('names the member whose value opens one level too many, through arrays and escaped keys', () => {
    expect(findJsonBoundsProblem('[[[]]]', 3)).toBeUndefined();
    expect(findJsonBoundsProblem('[[[[]]]]', 3)).toEqual({ path: [0, 0, 0], message: tooDeep(3) });
    expect(findJsonBoundsProblem('{"a\\u0062":[1,{"c\\"d":[[]]}]}', 4)).toEqual({ path: ['ab', 1, 'c"d', 0], message: tooDeep(4) });
  });

  it('ignores brackets, quotes and exponents inside strings', () => {
    expect(findJsonBoundsProblem(`{"s":"[[[[{{{{ 1e999 \\\\","t":"\\"[["}`, 2)).toBeUndefined();
  });

  it('stops at the first bracket too many: 10 MB of brackets in milliseconds', () => {
    const brackets = `${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}`;
    const started = process.hrtime.bigint();
    expect(findJsonBoundsProblem(brackets, JSON_MAX_DEPTH)?.path).toHaveLength(JSON_MAX_DEPTH);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(200);
  });

  it('refuses numbers JSON.parse would turn into ±Infinity or 0, with or without an exponent', () => {
    const long = `1${'0'.repeat(400)}`;
    expect(findJsonBoundsProblem('{"v":[1e308,-1.7976931348623157e308,0e999,-0.0e-999,1.5e-300]}', 64)).toBeUndefined();
    expect(findJsonBoundsProblem('{"v":[1,-1e309]}', 64)).toEqual({ path: ['v', 1], message: beyond });
    expect(findJsonBoundsProblem(`{"v" : ${long} }`, 64)).toEqual({ path: ['v'], message: beyond });
    expect(findJsonBoundsProblem(`-${long}`, 64)).toEqual({ path: [], message: beyond });
    expect(findJsonBoundsProblem(`[0.${'0'.repeat(400)}1]`, 64)?.message).toBe(
      'is closer to zero than 5e-324, the smallest magnitude a non-zero number may have',
    );
    expect(findJsonBoundsProblem('{"v":1E-400}', 64)?.path).toEqual(['v']);
  });

  it('leaves malformed text to JSON.parse', () => {
    expect(findJsonBoundsProblem('{"v":1e,"w":-,"x":true,"y":"unterminated', 64)).toBeUndefined();
  });
});
