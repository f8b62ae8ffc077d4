/** The workflows `bench:temporal` times: the floor of a call through Temporal, with nothing of the platform in it. */
import { condition, defineUpdate, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
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

/** A running workflow answering Updates with a local activity (the gateway lanes' shape): an echo, or one HTTP GET. */
export async function updateLane(): Promise<void> {
  let done = false;
  setHandler(echoUpdate, (message) => local.echo(message));
  setHandler(fetchUpdate, (request) => local.fetchJson(request));
  await condition(() => done, '10 minutes');
  done = true;
}
