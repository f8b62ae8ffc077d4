import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import type { ApiProcess, PlatformProcess, ProcessStack } from '../stack/processStack';
import { post, signUpOperator } from '../stack/stackClient';
import type { Db } from '../../db/knex';

/** What one scenario measured; `failures` says in words why it did not pass (empty when it did). */
export interface ScenarioResult {
  name: string;
  sent: number;
  stored: number;
  lost: number;
  duplicated: number;
  fiveXx: number;
  /** From the fault's start to the first success after it (worst case over the scenario's faults). */
  recoveryMs: number | null;
  failures: string[];
  /** Anything else the line should show. */
  extra?: string;
  /** The scenario's outcome still to come (a long wait): the runner goes on with the next ones and prints it last. */
  later?: Promise<ScenarioResult>;
}

/** The running platform a scenario works against; scenarios that kill a process put its replacement back here. */
export interface ChaosContext {
  stack: ProcessStack;
  api: ApiProcess;
  worker: PlatformProcess;
  db: Db;
  short: boolean;
  log(line: string): void;
}

export type Scenario = (context: ChaosContext) => Promise<ScenarioResult>;

export interface Answer {
  status: number;
  retryAfter?: string | null;
  body: any;
  text: string;
  ms: number;
}

/** One HTTP request; connection errors reject (callers decide whether to retry), any status resolves. */
export async function request(
  url: string,
  path: string,
  options: { method?: string; body?: unknown; key?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
  });
  const text = await response.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body, text, ms: performance.now() - started };
}

/** A fresh operator with an API key and the iGaming template selected. */
export async function chaosOperator(url: string): Promise<{ operatorId: string; key: string }> {
  const { operatorId, apiKey } = await signUpOperator(url);
  await post(url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID }, apiKey, 'PUT');
  return { operatorId, key: apiKey };
}

/** Words a 5xx body must never carry: driver, network and stack text. */
const LEAKS = /ECONN|ETIMEDOUT|EPIPE|terminat|postgres|\bpg\b|knex|grpc|DEADLINE|stack|at \w+ \(|sql|select |insert /i;

/**
 * Why a 5xx answer is not the clean 503 the platform promises while a dependency is down (null when it is):
 * status 503, `Retry-After`, the coded envelope `SERVICE_UNAVAILABLE`, no driver or stack text.
 */
export function unclean503(answer: Answer): string | null {
  if (answer.status !== 503) return `HTTP ${answer.status}: ${answer.text.slice(0, 160)}`;
  if (answer.body?.error?.code !== 'SERVICE_UNAVAILABLE') return `503 without SERVICE_UNAVAILABLE: ${answer.text.slice(0, 160)}`;
  if (!answer.retryAfter) return '503 without Retry-After';
  if (LEAKS.test(answer.text)) return `503 leaking driver text: ${answer.text.slice(0, 160)}`;
  return null;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How soon in-flight work must resume after its worker is SIGKILLed: the sticky-queue, heartbeat and workflow-task
 * timeouts are chosen for it (docs/production.md, recovery after a worker is lost).
 */
export const WORKER_LOSS_RECOVERY_TARGET_MS = 10_000;

/**
 * Runs a worker-kill scenario beside a second worker that is never killed, as production runs two or more: the
 * recovery target is about work moving to a surviving worker, not about how fast a replacement process starts.
 */
export async function withSurvivingWorker<T>(context: ChaosContext, scenario: () => Promise<T>): Promise<T> {
  const survivor = await context.stack.spawnWorker();
  context.log(`surviving worker pid ${survivor.pid}`);
  try {
    return await scenario();
  } finally {
    await survivor.kill('SIGTERM');
  }
}

/** The recovery figure against its target, for the scenario's line, and the failure when it is over. */
export function recoveryAgainstTarget(recoveryMs: number): { extra: string; failure: string | null } {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
  const within = recoveryMs <= WORKER_LOSS_RECOVERY_TARGET_MS;
  return {
    extra: `recovery ${seconds(recoveryMs)} ${within ? '≤' : '>'} target ${seconds(WORKER_LOSS_RECOVERY_TARGET_MS)}`,
    failure: within ? null : `recovery ${seconds(recoveryMs)} over the ${seconds(WORKER_LOSS_RECOVERY_TARGET_MS)} target`,
  };
}

/** Polls `probe` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function waitUntil<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${Math.round(timeoutMs / 1000)} s`);
    await sleep(everyMs);
  }
}

export const isConnectionError = (error: unknown) => error instanceof TypeError || (error as Error)?.name === 'TimeoutError';

export function result(name: string, counts: Omit<ScenarioResult, 'name' | 'failures'>, failures: string[]): ScenarioResult {
  const all = [...failures];
  if (counts.lost > 0) all.push(`${counts.lost} lost`);
  if (counts.duplicated > 0) all.push(`${counts.duplicated} duplicated`);
  return { name, ...counts, failures: all };
}

export function formatResult(index: number, outcome: ScenarioResult): string {
  const recovery = outcome.recoveryMs === null ? 'n/a' : `${(outcome.recoveryMs / 1000).toFixed(1)}s`;
  const verdict = outcome.failures.length === 0 ? 'PASS' : `FAIL (${outcome.failures.slice(0, 3).join('; ')})`;
  const extra = outcome.extra ? ` ${outcome.extra}` : '';
  return `${index}. ${outcome.name.padEnd(32)} sent=${outcome.sent} stored=${outcome.stored} lost=${outcome.lost} duplicated=${outcome.duplicated} 5xx=${outcome.fiveXx} recovery=${recovery}${extra} ${verdict}`;
}
