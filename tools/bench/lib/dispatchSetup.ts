import { IGAMING_TEMPLATE_ID } from '../../../core/templates';
import type { Db } from '../../../db/knex';
import { benchOperator, post } from './stack';
import { until } from './waitForEvent';

/** What every `bench:dispatch` section needs of its stack: the API's address and the database the runs are read from. */
export interface DispatchContext {
  url: string;
  db: Db;
}

/** An operator of the bench: its key and the players its probe events are written for. */
export interface DispatchTenant {
  operatorId: string;
  apiKey: string;
  /**
   * The external ids of its probe players, taken in turn. More than one, because every probe's run sets its player's
   * `risk_score`: 20 runs a second on one player queue on that state row's lock, which no figure here is about
   * (docs/benchmarks.md).
   */
  probes: string[];
}

/** Probe players of a tenant probed at up to 20 events/s; a tenant of the growth crowd, probed far slower, has one. */
export const PROBE_PLAYERS = 20;

const BATCH_EVENTS = 5000;
const BATCH_ENTITIES = 1000;
const JOB_TIMEOUT_MS = 300_000;

export const playerId = (index: number) => `player-${index}`;

/** A signed-up operator with the iGaming template and `probePlayers` probe players; `players` more players when asked (player-0…). */
export async function dispatchTenant(ctx: DispatchContext, players = 0, probePlayers = PROBE_PLAYERS): Promise<DispatchTenant> {
  const { operatorId, apiKey } = await benchOperator(ctx.url);
  await post(ctx.url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID, reportingCurrency: 'EUR' }, apiKey, 'PUT');
  const probes = await Promise.all(
    Array.from({ length: probePlayers }, async (_, i) => {
      const externalId = `probe-${i}`;
      await post(ctx.url, '/operator-data-api/entities', { externalId, entityType: 'player', data: { country: 'MT' } }, apiKey);
      return externalId;
    }),
  );
  const tenant = { operatorId, apiKey, probes };
  if (players > 0) await seedPlayers(ctx, tenant, players);
  return tenant;
}

/**
 * `count` tenants signed up `concurrency` at a time, stopping at `timeLimitMs`: sign-up hashes a password, so 200 of
 * them take a while on two cores, and a run that cannot get them all measures with those it got (the caller prints how many).
 */
export async function dispatchTenants(ctx: DispatchContext, count: number, concurrency: number, timeLimitMs: number): Promise<DispatchTenant[]> {
  const tenants: DispatchTenant[] = [];
  const deadline = Date.now() + timeLimitMs;
  let issued = 0;
  const lane = async () => {
    while (issued < count && Date.now() < deadline) {
      issued += 1;
      tenants.push(await dispatchTenant(ctx, 0, 1));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return tenants;
}

/** Waits until every batch job completed; throws on a failed job or one that rejected items (the bench's setup must be whole). */
export async function batchJobsDone(ctx: DispatchContext, apiKey: string, jobIds: string[]): Promise<void> {
  for (const id of jobIds) {
    await until(
      `batch job ${id} not completed`,
      async () => {
        const job = (await fetch(`${ctx.url}/operator-data-api/batch/jobs/${id}`, { headers: { authorization: `Bearer ${apiKey}` } }).then((r) =>
          r.json(),
        )) as {
          data: { status: string; error: string | null; output: { failed: number } | null };
        };
        if (job.data.status === 'failed' || (job.data.output?.failed ?? 0) > 0) throw new Error(`batch job ${id}: ${job.data.error ?? 'items rejected'}`);
        return job.data.status === 'completed' ? true : undefined;
      },
      JOB_TIMEOUT_MS,
      100,
    );
  }
}

/** Posts `items` to a batch endpoint in the largest batches it takes; resolves with the job ids, not waiting for them. */
export async function postBatches(ctx: DispatchContext, apiKey: string, kind: 'events' | 'entities', items: unknown[]): Promise<string[]> {
  const size = kind === 'events' ? BATCH_EVENTS : BATCH_ENTITIES;
  const chunks = Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
  return Promise.all(chunks.map(async (chunk) => (await post(ctx.url, `/operator-data-api/batch/${kind}`, chunk, apiKey)).data.jobId as string));
}

async function seedPlayers(ctx: DispatchContext, tenant: DispatchTenant, count: number): Promise<void> {
  const players = Array.from({ length: count }, (_, i) => ({ entityType: 'player', externalId: playerId(i), data: { country: 'GB' } }));
  await batchJobsDone(ctx, tenant.apiKey, await postBatches(ctx, tenant.apiKey, 'entities', players));
}

/** A transaction event of `amount`: `bet`, so no deposit's harm check rides on the dispatcher's figures. */
export const transaction = (amount: number, reference?: string) => ({
  eventType: 'transaction',
  data: { type: 'bet', amount, currency: 'EUR', ...(reference ? { reference } : {}) },
});

/** The filter of the automation that takes transactions of exactly `amount`. */
export const amountFilter = (amount: number) => `trigger.data.amount = ${amount}`;

/**
 * Creates an active automation: a `trigger.event` on `event` (with `filter` when given) and one `action.set_state` on
 * the event's player; `extra` adds top-level fields (`run_control`). Resolves with its id.
 */
export async function eventAutomation(
  ctx: DispatchContext,
  apiKey: string,
  event: string,
  filter?: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const body = {
    name: `Bench ${event} ${filter ?? 'all'}`.slice(0, 120),
    active: true,
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event, ...(filter ? { filter } : {}) } },
      { id: 'mark', type: 'action.set_state', params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: 1 } },
    ],
    edges: [{ from: 'start', to: 'mark' }],
    ...extra,
  };
  return (await post(ctx.url, '/workflows-api/workflows', body, apiKey)).data.id as string;
}

/** `count` automations, one per amount 1…count (`trigger.data.amount = n`), created a few at a time; ids by amount - 1. */
export async function amountAutomations(ctx: DispatchContext, apiKey: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; n <= count; n += 4) {
    const amounts = Array.from({ length: Math.min(4, count - n + 1) }, (_, i) => n + i);
    ids.push(...(await Promise.all(amounts.map((amount) => eventAutomation(ctx, apiKey, 'entity_event.transaction', amountFilter(amount))))));
  }
  return ids;
}

/**
 * `players` runs left waiting in an `action.wait_for_event` on `entity_event.kyc`, one per player: an automation
 * started by a `bonus` event (through the public API, as an operator's own would be) whose only step waits for the
 * player's KYC event. Resolves with the waits registered once all are, or with as many as there are at `timeLimitMs`
 * (a dispatcher that drops events leaves some unstarted: the caller prints how many it measured beside).
 */
export async function waitingRuns(ctx: DispatchContext, tenant: DispatchTenant, players: number, timeLimitMs: number): Promise<number> {
  const body = {
    name: 'Bench waits for KYC',
    active: true,
    nodes: [
      { id: 'start', type: 'trigger.event', params: { event: 'entity_event.bonus' } },
      { id: 'kyc', type: 'action.wait_for_event', params: { event: 'entity_event.kyc', timeoutSeconds: 3600 } },
    ],
    edges: [{ from: 'start', to: 'kyc' }],
  };
  await post(ctx.url, '/workflows-api/workflows', body, tenant.apiKey);
  const bonuses = Array.from({ length: players }, (_, i) => ({ externalId: playerId(i), eventType: 'bonus', data: { type: 'welcome', amount: 10 } }));
  await postBatches(ctx, tenant.apiKey, 'events', bonuses);
  await until(
    `fewer than ${players} waits registered`,
    async () => ((await waitCount(ctx.db, tenant.operatorId)) >= players ? true : undefined),
    timeLimitMs,
    500,
  ).catch(() => undefined);
  return waitCount(ctx.db, tenant.operatorId);
}

/** Runs of the operator waiting in an `action.wait_for_event`. */
export const waitCount = async (db: Db, operatorId: string) =>
  Number((await db('automation_run_waits').where({ operator_id: operatorId }).count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);

/** One KYC event per waiting player, in batches: wakes every run `waitingRuns` left. Resolves with the job ids. */
export const wakeWaitingRuns = (ctx: DispatchContext, tenant: DispatchTenant, players: number) =>
  postBatches(
    ctx,
    tenant.apiKey,
    'events',
    Array.from({ length: players }, (_, i) => ({ externalId: playerId(i), eventType: 'kyc', data: { status: 'approved' } })),
  );
