import { detail } from './dispatchReport';
import { startProfile } from './profile';
import { probeEventToRun, settledRuns, type ProbeOptions, type Probed } from './dispatchProbe';
import { amountAutomations, playerId, postBatches, transaction, type DispatchContext, type DispatchTenant } from './dispatchSetup';

export const BURST_EVENTS = 10_000;
export const BURST_AUTOMATIONS = 50;
/** Amounts cycle over 1…AMOUNTS: those up to BURST_AUTOMATIONS match one automation each, a fifth of the burst. */
const AMOUNTS = 250;
export const BURST_PLAYERS = 200;
const RUNS_LIMIT_MS = 300_000;
/** Which seconds after its post the burst is profiled over (DISPATCH_PROFILE=1): by default its intake, within about 3 s. */
export interface BurstProfile {
  fromS: number;
  forS: number;
}

/** What the burst's runs were, pair by pair: exactly once, lost, duplicated, or started by an automation whose filter the event fails. */
export interface BurstTally {
  expected: number;
  once: number;
  lost: number;
  duplicated: number;
  wrong: number;
}

/** Runs per (automation, event) of the operator, with the event's amount: found through the outbox row as the probes find theirs. */
async function runsPerPair(ctx: DispatchContext, operatorId: string): Promise<Array<{ automation_id: string; amount: number; runs: number }>> {
  const result = await ctx.db.raw<{ rows: Array<{ automation_id: string; amount: string; runs: number }> }>(
    `SELECT r.automation_id, e.data ->> 'amount' AS amount, count(*)::int AS runs
       FROM automation_runs r
       JOIN outbox_events o ON o.operator_id = r.operator_id AND o.id = substring(r.temporal_workflow_id FROM length(r.automation_id) + 19)
       JOIN entity_events e ON e.id = o.source_event_id AND e.operator_id = r.operator_id
      WHERE r.operator_id = ? AND r.source = 'event'
      GROUP BY r.automation_id, e.id`,
    [operatorId],
  );
  return result.rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

async function tally(ctx: DispatchContext, operatorId: string, amountOf: Map<string, number>, expected: number): Promise<BurstTally> {
  const pairs = await runsPerPair(ctx, operatorId);
  const right = pairs.filter((pair) => amountOf.get(pair.automation_id) === pair.amount);
  const once = right.filter((pair) => pair.runs === 1).length;
  return {
    expected,
    once,
    lost: expected - right.length,
    duplicated: pairs.reduce((n, pair) => n + pair.runs - 1, 0),
    wrong: pairs.length - right.length,
  };
}

/**
 * Bursts: BURST_EVENTS events posted at once (the batch endpoint takes 5,000 a request, so two requests together) into
 * `burst`, where BURST_AUTOMATIONS automations each take one amount; the bystander's probes run beside it. Then, once
 * the matching runs have started (or RUNS_LIMIT_MS passed), every (automation, event) pair is counted in the database.
 * With `profile`, this process's main thread is profiled over that window after the post (`profiled`: where it went).
 */
export async function burstPhase(
  ctx: DispatchContext,
  burst: DispatchTenant,
  bystander: () => Promise<Probed>,
  profile?: BurstProfile,
): Promise<{ during: Probed; tally: BurstTally; posted: number; profiled?: string }> {
  const ids = await amountAutomations(ctx, burst.apiKey, BURST_AUTOMATIONS);
  const amountOf = new Map(ids.map((id, i) => [id, i + 1]));
  const items = Array.from({ length: BURST_EVENTS }, (_, i) => ({ externalId: playerId(i % BURST_PLAYERS), ...transaction(1 + (i % AMOUNTS)) }));
  const expected = items.filter((item) => item.data.amount <= BURST_AUTOMATIONS).length;
  const posted = Date.now();
  const profiled = profile && profileWindow(profile);
  const [during] = await Promise.all([bystander(), postBatches(ctx, burst.apiKey, 'events', items)]);
  const settled = await settledRuns(ctx.db, burst.operatorId, expected, RUNS_LIMIT_MS);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const counted = await tally(ctx, burst.operatorId, amountOf, expected);
  detail(
    `burst: ${BURST_EVENTS} events, ${expected} matching; ${settled.runs} runs, backlog ${settled.backlog}, settled ${((Date.now() - posted) / 1000).toFixed(1)} s after the post; ` +
      `exactly once ${counted.once}, lost ${counted.lost}, duplicated ${counted.duplicated}, wrong automation ${counted.wrong}`,
  );
  return { during, tally: counted, posted, profiled: profiled && `${profile.fromS}–${profile.fromS + profile.forS} s after the post, ${await profiled}` };
}

/** This process's main thread profiled from `fromS` to `fromS + forS` seconds from now, per burst event. */
async function profileWindow({ fromS, forS }: BurstProfile): Promise<string> {
  const after = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000));
  await after(fromS);
  const profiling = await startProfile(undefined, 14);
  await after(forS);
  return profiling.stop(fromS === 0 ? 'burst-intake' : `burst-${fromS}s`, BURST_EVENTS);
}

/** The bystander's probes for a phase, each matching its one automation (`trigger.data.amount = 1`). */
export const bystanderProbes = (ctx: DispatchContext, bystander: DispatchTenant, options: ProbeOptions) => () =>
  probeEventToRun(ctx, () => ({ tenant: bystander, amount: 1 }), options);
