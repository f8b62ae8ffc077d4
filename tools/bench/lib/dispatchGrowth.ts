import { detail, type GoalRow } from './dispatchReport';
import { abbaProbes, p95, pooledProbes, probeEventToRun, type ProbeOptions, type Probed } from './dispatchProbe';
import { cpuMeter, formatCpu, quietDown } from './cpu';
import { LISTENING } from './dispatchFiltering';
import {
  amountFilter,
  dispatchTenants,
  eventAutomation,
  waitCount,
  waitingRuns,
  wakeWaitingRuns,
  type DispatchContext,
  type DispatchTenant,
} from './dispatchSetup';
import { until } from './waitForEvent';
import { fmt, percentile } from './stats';

export const PROBES_PER_SECOND = 20;
export const WAITING_RUNS = 2000;
const SIGN_UP_CONCURRENCY = 4;
const SIGN_UP_LIMIT_MS = 300_000;
const WAITS_LIMIT_MS = 300_000;
/** Quiet enough to probe: the stack under half a core over 5 s (it idles far below), waited for at most 2 minutes. */
const QUIET = { belowCores: 0.5, windowMs: 5_000, maxMs: 120_000 };

export interface GrowthTenants {
  /** One automation, `trigger.data.amount = 1`. */
  single: DispatchTenant;
  /** LISTENING automations, one per amount (the filtering section's tenant). */
  listening: DispatchTenant;
  /** A tenant for the waiting runs, with WAITING_RUNS players. */
  waiting: DispatchTenant;
}

/** `p50/p95 ms (n, lost)` of a probe phase, for the lines under a table. */
export const probeSummary = (probed: Probed) =>
  `p50 ${fmt(percentile(probed.latencies, 50), 0)} / p95 ${fmt(p95(probed), 0)} ms over ${probed.latencies.length} runs` +
  (probed.lost || probed.refused ? `, ${probed.lost} lost, ${probed.refused} refused` : '') +
  ` (to its outbox row p50 ${fmt(percentile(probed.toOutbox, 50), 0)} / p95 ${fmt(percentile(probed.toOutbox, 95), 0)}, to its dispatch pass p50 ${fmt(percentile(probed.toPass, 50), 0)} / p95 ${fmt(percentile(probed.toPass, 95), 0)}, pass to run p50 ` +
  `${fmt(percentile(probed.passToRun, 50), 0)} / p95 ${fmt(percentile(probed.passToRun, 95), 0)})`;

/** A note for a row whose probes lost or had refused some events: the latency alone would hide them. */
export const lossNote = (probed: Probed) =>
  probed.lost || probed.refused ? `${probed.lost} probe runs lost, ${probed.refused} probe events refused` : undefined;

/** `tenants` more operators with one automation each (`trigger.data.amount = 1`); as many as sign-up gives in its time. */
async function manyTenants(ctx: DispatchContext, tenants: number): Promise<DispatchTenant[]> {
  const signedUp = await dispatchTenants(ctx, tenants, SIGN_UP_CONCURRENCY, SIGN_UP_LIMIT_MS);
  for (let i = 0; i < signedUp.length; i += SIGN_UP_CONCURRENCY) {
    await Promise.all(signedUp.slice(i, i + SIGN_UP_CONCURRENCY).map((t) => eventAutomation(ctx, t.apiKey, 'entity_event.transaction', amountFilter(1))));
  }
  return signedUp;
}

/**
 * Growth: event → run start p95 at PROBES_PER_SECOND, each probe matching one automation, with 1 automation listening
 * beside LISTENING (A B B A phases), one tenant beside `tenants` tenants of one automation each (probes spread over
 * them, A B B A), and none beside WAITING_RUNS runs waiting in `action.wait_for_event` in another tenant (A B A: none
 * before the waits are made, then beside them, then none again once every wait was woken and its run ended; the two
 * A phases pooled, so the machine's drift over the section does not all land on one side).
 */
export async function growthSection(
  ctx: DispatchContext,
  own: GrowthTenants,
  tenants: number,
  probeSeconds: number,
  cpu: Parameters<typeof cpuMeter>[0],
): Promise<GoalRow[]> {
  const half: ProbeOptions = { perSecond: PROBES_PER_SECOND, count: Math.ceil((PROBES_PER_SECOND * probeSeconds) / 2), settleMs: 30_000 };
  const whole: ProbeOptions = { ...half, count: half.count * 2 };
  const single = () => probeEventToRun(ctx, () => ({ tenant: own.single, amount: 1 }), half);
  const [one, many] = await abbaProbes(single, () => probeEventToRun(ctx, (i) => ({ tenant: own.listening, amount: 1 + (i % LISTENING) }), half), 2);
  detail(`1 automation: ${probeSummary(one)}; ${LISTENING} automations: ${probeSummary(many)}`);

  const spread = await manyTenants(ctx, tenants);
  const [alone, crowd] = await abbaProbes(single, () => probeEventToRun(ctx, (i) => ({ tenant: spread[i % spread.length]!, amount: 1 }), half), 2);
  detail(`one tenant: ${probeSummary(alone)}; ${spread.length} tenants × 1 automation: ${probeSummary(crowd)}`);

  /**
   * The probes with the CPU each cost every process (and the SDK core's workflow thread, whose work grows with the runs
   * it caches), once the stack is quiet: the runs' registrations end before Temporal and the dispatcher are done with
   * them, and that tail is the setup's cost, not what waiting runs cost the probes.
   */
  const metered = async () => {
    const settled = await quietDown(cpu, QUIET);
    const meter = cpuMeter(cpu);
    const probed = await probeEventToRun(ctx, () => ({ tenant: own.single, amount: 1 }), whole);
    return {
      probed,
      cpu: formatCpu(meter.perOperation(probed.sent)),
      settled: `${(settled.waitedMs / 1000).toFixed(0)} s to ${settled.cores.toFixed(2)} cores`,
    };
  };
  const before = await metered();
  const waiting = await waitingRuns(ctx, own.waiting, WAITING_RUNS, WAITS_LIMIT_MS);
  const beside = await metered();
  await wakeWaitingRuns(ctx, own.waiting, WAITING_RUNS);
  await until('waits still registered', async () => ((await waitCount(ctx.db, own.waiting.operatorId)) === 0 ? true : undefined), WAITS_LIMIT_MS, 1000).catch(
    () => undefined,
  );
  const left = await waitCount(ctx.db, own.waiting.operatorId);
  const after = await metered();
  const none = pooledProbes([before.probed, after.probed]);
  detail(
    `none waiting: ${probeSummary(before.probed)} before, ${probeSummary(after.probed)} after (${left} still waiting); ` +
      `${waiting} of ${WAITING_RUNS} waiting in another tenant: ${probeSummary(beside.probed)}`,
  );
  detail(`CPU per probe, none waiting: ${before.cpu} before, ${after.cpu} after; ${waiting} waiting: ${beside.cpu}`);
  detail(`stack quiet before the probes, none waiting: ${before.settled} before, ${after.settled} after; ${waiting} waiting: ${beside.settled}`);

  return [
    { name: `p95, ${LISTENING} automations / 1 listening`, figure: p95(many), floor: p95(one), unit: 'ms', goal: { atMost: 1.5 }, note: lossNote(many) },
    {
      name: `p95, ${spread.length} tenants × 1 automation / one tenant`,
      figure: p95(crowd),
      floor: p95(alone),
      unit: 'ms',
      goal: { atMost: 1.2 },
      note: lossNote(crowd),
    },
    {
      name: `p95, ${WAITING_RUNS} runs waiting elsewhere / none`,
      figure: p95(beside.probed),
      floor: p95(none),
      unit: 'ms',
      goal: { atMost: 1.2 },
      note: lossNote(beside.probed),
    },
  ];
}
