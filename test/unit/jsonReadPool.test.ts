import { readdirSync, readFileSync } from 'node:fs';
import { readJson } from '../../core/jsonRead';
import { JSON_READ_WORKER_MIN_BYTES, JsonReadPool } from '../../core/jsonReadPool';

const pad = 'p'.repeat(JSON_READ_WORKER_MIN_BYTES);
/** Bodies over the worker threshold, one of each reading. */
const bodies: Record<string, string> = {
  sound: JSON.stringify({ pad, text: 'é ✓ 😀 "quoted" \\ back', numbers: [1.7976931348623157e308, 5e-324, -0, 0.1], nested: { a: [{ b: null }] } }),
  ownProto: `{"__proto__":{"polluted":true},"pad":"${pad}"}`,
  tooDeep: `{"pad":"${pad}","x":${'['.repeat(100)}${']'.repeat(100)}}`,
  overflow: `{"pad":"${pad}","amount":1e309}`,
  malformed: `{"pad":"${pad}","a":`,
  nul: `{"pad":"${pad}","a":"\\u0000"}`,
  loneSurrogate: `{"pad":"${pad}","\\ud800":1}`,
};

describe('JsonReadPool: large bodies read on a worker as on the calling thread', () => {
  const pool = new JsonReadPool(1);
  afterAll(() => pool.close());

  it.each(Object.keys(bodies))('%s', async (name) => {
    const text = bodies[name]!;
    const reading = await pool.read(Buffer.from(text), 64);
    expect(reading).toEqual(readJson(text, 64));
    if (name === 'sound' || name === 'ownProto') expect(reading.ok).toBe(true);
    else expect(reading.ok).toBe(false);
  });

  it('keeps `__proto__` an own key and the prototype plain', async () => {
    const reading = await pool.read(Buffer.from(bodies.ownProto!), 64);
    const value = reading.ok ? (reading.value as Record<string, unknown>) : {};
    expect(Object.keys(value)).toEqual(['__proto__', 'pad']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('runs its workers at nice 10, the calling thread staying at its own', async () => {
    expect((await pool.read(Buffer.from(bodies.sound!), 64)).ok).toBe(true);
    const niceOf = (task: string) => {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const values = readdirSync('/proc/self/task').map(niceOf);
    expect(values.filter((nice) => nice === 10)).toHaveLength(pool.running);
    expect(niceOf(String(process.pid))).toBe(0);
  });

  it('reads bodies a failed worker held on the calling thread, and starts another for the next', async () => {
    const crashing = new JsonReadPool(1);
    const pending = crashing.read(Buffer.from(bodies.sound!), 64);
    expect(crashing.running).toBe(1);
    await crashing.close();
    expect(crashing.running).toBe(0);
    expect(await pending).toEqual(readJson(bodies.sound!, 64));
    expect(await crashing.read(Buffer.from(bodies.overflow!), 64)).toEqual(readJson(bodies.overflow!, 64));
    await crashing.close();
  });
});
