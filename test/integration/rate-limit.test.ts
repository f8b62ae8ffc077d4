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
    const row = await first.deps
      .db('rate_limits')
      .where({ key: `ingest:realtime:${operatorA}` })
      .first();
    expect(row.points).toBeGreaterThanOrEqual(5);
  });
});

describe('leased counters', () => {
  let leased: TestApp[];
  beforeAll(async () => {
    leased = await Promise.all([startTestApp({ RATE_LIMIT_INGEST_REALTIME: '1000' }), startTestApp({ RATE_LIMIT_INGEST_REALTIME: '1000' })]);
  });
  afterAll(async () => {
    await Promise.all(leased.map((app) => app.close()));
  });

  it('two instances together allow exactly the limit, taking a hundredth of it per database write', async () => {
    const operator = randomUUID();
    const decisions = await Promise.all(Array.from({ length: 1100 }, (_, i) => leased[i % 2]!.deps.rateLimits.consume('ingest:realtime', operator)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(1000);
    const refused = decisions.filter((decision) => !decision.allowed);
    expect(refused.every((decision) => decision.retryAfterSeconds >= 1 && decision.retryAfterSeconds <= 60)).toBe(true);
    const row = await leased[0]!.deps
      .db('rate_limits')
      .where({ key: `ingest:realtime:${operator}` })
      .first();
    // Leases of 10 points: 100 grants and at most one refused take per instance, instead of one write per request.
    expect(row.points).toBeGreaterThanOrEqual(1000);
    expect(row.points).toBeLessThanOrEqual(1000 + 2 * 2 * 10);
  });

  it('a spent window is refused from memory until it ends', async () => {
    const operator = randomUUID();
    const [app] = leased;
    for (let i = 0; i < 1000; i += 1) await app!.deps.rateLimits.consume('ingest:realtime', operator);
    expect((await app!.deps.rateLimits.consume('ingest:realtime', operator)).allowed).toBe(false);
    await app!.deps
      .db('rate_limits')
      .where({ key: `ingest:realtime:${operator}` })
      .update({ points: 0 });
    expect((await app!.deps.rateLimits.consume('ingest:realtime', operator)).allowed).toBe(false);
    const row = await app!.deps
      .db('rate_limits')
      .where({ key: `ingest:realtime:${operator}` })
      .first();
    expect(row.points).toBe(0);
  });
});
