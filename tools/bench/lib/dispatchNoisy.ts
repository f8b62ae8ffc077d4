import jsonata from 'jsonata';
import { detail } from './dispatchReport';
import { backlogOf, eventRunCount, type Probed } from './dispatchProbe';
import {
  dispatchTenant,
  eventAutomation,
  playerId,
  postBatches,
  waitCount,
  waitingRuns,
  wakeWaitingRuns,
  type DispatchContext,
  type DispatchTenant,
} from './dispatchSetup';
import { probeSummary, WAITING_RUNS } from './dispatchGrowth';
import { until } from './waitForEvent';
import { LANE_KEYS_PER_AUTOMATION } from '../../../worker/laneKeys';

const POISON_DEPTH = 4000;
const POISON_FILTER = '$exists(trigger.data.x) and 1 = 1';
const SLOW_FILTER_MS = 20;
const SLOW_EVENTS = 500;
const CONTROL_KEYS = 2000;
/** The debounce of the keys whose runs fire in the probes: long enough for their lanes to be made before the probes. */
const FIRE_QUIET_S = 10;
/** How long the lanes of the keys that fire may take to be made (alone, before the probes). */
const LANES_LIMIT_MS = 60_000;
const WAITS_LIMIT_MS = 300_000;
const SETTLE_MS = 60_000;

/** A noise beside which the bystander was probed, what the noise met, and the bystander alone just before it. */
export interface NoisyPhase {
  name: string;
  during: Probed;
  what: string;
  alone: Probed;
}

type Noise = (ctx: DispatchContext, noisy: DispatchTenant, probe: () => Promise<Probed>) => Promise<Omit<NoisyPhase, 'alone'>>;

const slowFilter = (size: number) => `$reduce([1..${size}], function($a, $v) { $a + $v }) > 0 and trigger.data.bet_amount > 0`;

/**
 * The range size whose `$reduce` costs about SLOW_FILTER_MS of CPU, timed with the sandbox's own JSONata in this
 * process: the sandbox runs on the same cores, so its evaluation costs about the same.
 */
async function slowFilterSize(): Promise<number> {
  const probe = 20_000;
  const expression = jsonata(slowFilter(probe));
  await expression.evaluate({ trigger: { data: { bet_amount: 1 } } });
  const begin = performance.now();
  for (let n = 0; n < 5; n += 1) await expression.evaluate({ trigger: { data: { bet_amount: 1 } } });
  const perEvaluation = (performance.now() - begin) / 5;
  return Math.max(1000, Math.min(5_000_000, Math.round((probe * SLOW_FILTER_MS) / perEvaluation)));
}

const nested = (depth: number) => {
  let value: Record<string, unknown> = { leaf: true };
  for (let n = 0; n < depth; n += 1) value = { x: value };
  return value;
};

/**
 * (5, last) One session event whose `data.x` nests POISON_DEPTH levels, for an automation whose filter reads it: last,
 * because a dispatcher it stalls stays stalled, and every noise after it would measure the stall, not itself.
 */
const poison: Noise = async (ctx, noisy, probe) => {
  await eventAutomation(ctx, noisy.apiKey, 'entity_event.session', POISON_FILTER);
  const response = await fetch(`${ctx.url}/operator-data-api/entities/${playerId(0)}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${noisy.apiKey}` },
    body: JSON.stringify({ eventType: 'session', data: { device: 'bench', x: nested(POISON_DEPTH).x } }),
  });
  const answer = (await response.text()).slice(0, 140);
  const during = await probe();
  const left = await backlogOf(ctx.db, noisy.operatorId);
  const what =
    response.status === 201
      ? `accepted (201); ${left} of the noisy tenant's events undispatched after the probes`
      : `refused at ingest: ${response.status} ${answer}`;
  return { name: `a poison event (${POISON_DEPTH} levels deep)`, during, what };
};

/** (1) SLOW_EVENTS game_activity events in one batch, each met by a filter costing about SLOW_FILTER_MS of CPU. */
const slow: Noise = async (ctx, noisy, probe) => {
  const size = await slowFilterSize();
  await eventAutomation(ctx, noisy.apiKey, 'entity_event.game_activity', slowFilter(size));
  const events = Array.from({ length: SLOW_EVENTS }, (_, i) => ({
    externalId: playerId(i),
    eventType: 'game_activity',
    data: { game_id: 'slots', bet_amount: 1 + i },
  }));
  const before = await eventRunCount(ctx.db, noisy.operatorId);
  const [during] = await Promise.all([probe(), postBatches(ctx, noisy.apiKey, 'events', events)]);
  const left = await backlogOf(ctx.db, noisy.operatorId);
  const runs = (await eventRunCount(ctx.db, noisy.operatorId)) - before;
  return {
    name: `a slow filter (~${SLOW_FILTER_MS} ms) on ${SLOW_EVENTS} events`,
    during,
    what: `$reduce over [1..${size}], which every event passes; ${runs} of ${SLOW_EVENTS} runs started and ${left} events undispatched by the end of the probes`,
  };
};

/** (2) WAITING_RUNS runs waiting in `action.wait_for_event`, woken together by one KYC event per player. */
const wake: Noise = async (ctx, noisy, probe) => {
  const waiting = await waitingRuns(ctx, noisy, WAITING_RUNS, WAITS_LIMIT_MS);
  const [during] = await Promise.all([probe(), wakeWaitingRuns(ctx, noisy, WAITING_RUNS)]);
  const left = await waitCount(ctx.db, noisy.operatorId);
  return {
    name: `${WAITING_RUNS} waiting runs woken at once`,
    during,
    what: `${waiting} of ${WAITING_RUNS} runs waiting; ${waiting - left} woken by the end of the probes`,
  };
};

/** (3) CONTROL_KEYS events for as many players into an automation debounced per player: as many run-control keys. */
const keys: Noise = async (ctx, noisy, probe) => {
  await eventAutomation(ctx, noisy.apiKey, 'entity_event.affiliate', undefined, { run_control: { debounce: { quiet_seconds: 60 } } });
  const events = Array.from({ length: CONTROL_KEYS }, (_, i) => ({ externalId: playerId(i), eventType: 'affiliate', data: { campaign: `c-${i}` } }));
  const [during] = await Promise.all([probe(), postBatches(ctx, noisy.apiKey, 'events', events)]);
  const left = await backlogOf(ctx.db, noisy.operatorId);
  return { name: `${CONTROL_KEYS} run-control keys (debounce 60 s)`, during, what: `${left} of the noisy tenant's events still undispatched after the probes` };
};

/** The automation's live run-control keys (lanes counted against its cap). */
const laneCount = async (ctx: DispatchContext, operatorId: string, automationId: string) =>
  Number((await ctx.db('automation_lane_keys').where({ operator_id: operatorId, automation_id: automationId }).count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);

/**
 * (4) As many events as the cap on live keys (LANE_KEYS_PER_AUTOMATION), for as many players, into an automation
 * debounced FIRE_QUIET_S per player, in a tenant of their own (not queued behind another noise's backlog), sent before
 * the probes: nobody else busy, the dispatcher makes every lane at once. The probes begin a second before the first
 * lanes' quiet periods end, so their runs fire together in the probes.
 */
const fires: Noise = async (ctx, _noisy, probe) => {
  const keys = LANE_KEYS_PER_AUTOMATION;
  const tenant = await dispatchTenant(ctx, keys);
  const automationId = await eventAutomation(ctx, tenant.apiKey, 'entity_event.support', undefined, {
    run_control: { debounce: { quiet_seconds: FIRE_QUIET_S } },
  });
  const lanesOf = () => laneCount(ctx, tenant.operatorId, automationId);
  const events = Array.from({ length: keys }, (_, i) => ({ externalId: playerId(i), eventType: 'support', data: { ticket_id: `t-${i}` } }));
  const posted = Date.now();
  await postBatches(ctx, tenant.apiKey, 'events', events);
  const lanes = await until('', async () => ((await lanesOf()) >= keys ? true : undefined), LANES_LIMIT_MS, 100)
    .then(() => keys)
    .catch(lanesOf);
  const made = (Date.now() - posted) / 1000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, posted + (FIRE_QUIET_S - 1) * 1000 - Date.now())));
  const during = await probe();
  const runs = await eventRunCount(ctx.db, tenant.operatorId);
  return {
    name: `${keys} debounced keys firing (debounce ${FIRE_QUIET_S} s)`,
    during,
    what: `${lanes} lanes live ${made.toFixed(1)} s after the post; ${runs} of ${keys} runs fired by the end of the probes`,
  };
};

/** Every tenant's undispatched outbox rows. */
const totalBacklog = async (ctx: DispatchContext) =>
  Number((await ctx.db('outbox_events').whereNull('dispatched_at').count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);

/** Waits (bounded) for the dispatcher to finish what the last noise left, so each noise is measured on its own; what was left, if any. */
async function quiet(ctx: DispatchContext): Promise<string> {
  const settled = await until('', async () => ((await totalBacklog(ctx)) === 0 ? true : undefined), SETTLE_MS, 500).catch(() => false);
  return settled ? '' : ` (${await totalBacklog(ctx)} events of earlier noise still undispatched when it began)`;
}

/** The bystander alone once the dispatcher is done with the last noise, then beside `noise`: the pair adjacent in time. */
async function beside(ctx: DispatchContext, noisy: DispatchTenant, probe: () => Promise<Probed>, noise: Noise): Promise<NoisyPhase> {
  const left = await quiet(ctx);
  const alone = await probe();
  const phase = { ...(await noise(ctx, noisy, probe)), alone };
  phase.what += left;
  detail(`${phase.name}: ${phase.what}; bystander alone ${probeSummary(alone)}, beside ${probeSummary(phase.during)}`);
  return phase;
}

/** The noises in the order they run: the poison last, as its doc says. */
const NOISES = { slow, wake, keys, fires, poison };
export type NoiseName = keyof typeof NOISES;
export const NOISE_NAMES = Object.keys(NOISES) as NoiseName[];

/**
 * Noisy neighbours: the bystander probed alone and then beside each noise of another tenant (`names`, default all),
 * one after another once the dispatcher is done with the last — a slow filter, a mass wake-up, many run-control keys
 * and a poison event. Each noise's automation stays active.
 */
export async function noisyPhases(
  ctx: DispatchContext,
  noisy: DispatchTenant,
  probe: () => Promise<Probed>,
  names: ReadonlySet<NoiseName> = new Set(NOISE_NAMES),
): Promise<NoisyPhase[]> {
  const phases: NoisyPhase[] = [];
  for (const name of NOISE_NAMES) if (names.has(name)) phases.push(await beside(ctx, noisy, probe, NOISES[name]));
  return phases;
}

/** Players the noisy tenant needs: one per waiting run, per run-control key, per slow-filtered event. */
export const NOISY_PLAYERS = Math.max(WAITING_RUNS, CONTROL_KEYS, SLOW_EVENTS);
