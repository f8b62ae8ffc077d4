import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { http } from '../helpers/http';

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const limits = { RATE_LIMIT_AUTH: '3', RATE_LIMIT_INGEST_REALTIME: '5', TRUST_PROXY: 'true' };
  [first, second] = await Promise.all([startTestApp(limits), startTestApp(limits)]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

const signIn = (app: TestApp, clientAddress: string) =>
  http(`${app.url}/auth/v1/token?grant_type=password`, {
    body: { email: 'nobody@example.test', password: 'irrelevant' },
    headers: { 'x-forwarded-for': clientAddress },
  });

describe('rate limiting', () => {
  it('429 RATE_LIMITED with Retry-After once a class is exhausted, counted across API instances', async () => {
    const client = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
    expect((await signIn(first, client)).status).toBe(400);
    expect((await signIn(second, client)).status).toBe(400);
    expect((await signIn(first, client)).status).toBe(400);
    const limited = await signIn(second, client);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts per subject: one operator’s usage does not limit another, and the counters live in PostgreSQL', async () => {
    const [operatorA, operatorB] = [randomUUID(), randomUUID()];
    const decisions = [];
    for (let i = 0; i < 6; i += 1) decisions.push(await first.deps.rateLimits.consume('ingest:realtime', operatorA));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false]);
    expect((await second.deps.rateLimits.consume('ingest:realtime', operatorB)).allowed).toBe(true);
    const row = await first.deps.db('rate_limits').where({ key: `ingest:realtime:${operatorA}` }).first();
    expect(row.points).toBeGreaterThanOrEqual(5);
  });
});
