/** The workflows `bench:temporal` times: the floor of a call through Temporal, with nothing of the platform in it. */
import { allHandlersFinished, condition, continueAsNew, defineUpdate, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type * as activities from './activities';

const { echo, fetchJson } = proxyActivities<typeof activities>({ startToCloseTimeout: '10 seconds' });
const local = proxyLocalActivities<typeof activities>({ startToCloseTimeout: '10 seconds' });

/** One workflow, one normal activity: the platform's "bare" baseline. */
export async function oneActivity(message: string): Promise<string> {
  return echo(message);
}

/**
 * One workflow, one normal activity sending one GET: the floor of `tools/call` of a tool whose one action is an HTTP
 * request, the supplier call included as the gateway's floor includes its GET (`bench:mcp`).
 */
export async function oneFetch(request: { url: string; headers: Record<string, string> }): Promise<unknown> {
  return fetchJson(request);
}

/** One workflow, one local activity (no task-queue hop for the activity). */
export async function oneLocalActivity(message: string): Promise<string> {
  return local.echo(message);
}

/**
 * An automation run's Temporal commands with nothing of the platform in them: a local activity (the run's begin), one
 * normal activity (its action) and a local activity (its finish). `bench:mcp` prints it beside the bare shape.
 */
export async function runShape(message: string): Promise<string> {
  await local.echo(message);
  await echo(message);
  return local.echo(message);
}

export const echoUpdate = defineUpdate<string, [string]>('echo');

export const fetchUpdate = defineUpdate<unknown, [{ url: string; headers: Record<string, string> }]>('fetch');

/**
 * A running workflow answering Updates with a local activity (the gateway lanes' shape): an echo, or one HTTP GET.
 * Like a gateway lane it continues as new after `callsPerRun` Updates (`LANE_CALLS_PER_RUN`): a run's Updates slow
 * down as it takes more of them — one lane's GET Updates in turns with a fresh lane's (its 10th to 160th), p50 1.07×
 * the fresh lane's at its 300th to 450th, 1.10× at 700–850, 1.17× at 1,100–1,250, 1.23× at 1,500–1,650 — so a floor
 * whose lane never rolled over would rise the longer a benchmark runs, and flatter the platform.
 */
export async function updateLane(callsPerRun = Number.POSITIVE_INFINITY): Promise<void> {
  let handled = 0;
  const count = <T>(work: Promise<T>) => {
    handled += 1;
    return work;
  };
  setHandler(echoUpdate, (message) => count(local.echo(message)));
  setHandler(fetchUpdate, (request) => count(local.fetchJson(request)));
  const rolled = await condition(() => handled >= callsPerRun, '10 minutes');
  await condition(allHandlersFinished);
  if (rolled) await continueAsNew<typeof updateLane>(callsPerRun);
}
