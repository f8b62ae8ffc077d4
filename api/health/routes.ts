import { z } from 'zod';
import { temporalReachable } from '../../temporal/client';
import type { AppDeps } from '../deps';
import { defineArea } from '../endpoint';
import { jsonContent } from '../openapi/registry';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  try {
    await withTimeout(probe(), CHECK_TIMEOUT_MS);
    return 'ok';
  } catch {
    return 'unavailable';
  }
}

const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({ database: z.enum(['ok', 'unavailable']), temporal: z.enum(['ok', 'unavailable']) }),
});

const health = defineArea({});

/** `GET /healthz`: 200 `{ status: "ok" }` when the database and Temporal both answer, else 503. */
const healthHandler = health.handler({}, async ({ deps, ctx }) => {
  const [database, temporal] = await Promise.all([check(() => deps.db.raw('select 1')), check(() => temporalReachable(deps.temporal))]);
  const status = database === 'ok' && temporal === 'ok' ? 'ok' : 'unavailable';
  ctx.status = status === 'ok' ? 200 : 503;
  ctx.body = { status, checks: { database, temporal } };
});

health.endpoint({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness and readiness: 200 once PostgreSQL and Temporal answer, 503 otherwise',
  security: 'none',
  responses: {
    200: jsonContent(Health, 'Ready', { status: 'ok', checks: { database: 'ok', temporal: 'ok' } }),
    503: jsonContent(Health, 'A dependency is unreachable', { status: 'unavailable', checks: { database: 'ok', temporal: 'unavailable' } }),
  },
  ...healthHandler,
});

export const createHealthRouter = (deps: AppDeps) => health.router(deps);
