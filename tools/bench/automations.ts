/**
 * `npm run bench:automations`: event write → run completed latency (p50/p95) of a one-action workflow
 * (`trigger.event` on `entity_event.transaction` → `action.set_state`), beside a bare Temporal
 * workflow+activity round trip (the diagnostics workflow) measured in the same run, and their ratio.
 * The latency of an event runs from the start of its `POST /operator-data-api/entities/:id/events` to
 * the run's `completed_at` in `automation_runs` (same host clock); each event carries a unique `reference`
 * so its run is found by its input. Starts its own embedded PostgreSQL, Temporal dev server, in-process
 * worker (with the outbox dispatcher) and API; loopback only; bounded in count and time; stops everything.
 */
import { IGAMING_TEMPLATE_ID } from '../../core/templates';
import type { Db } from '../../db/knex';
import { bareWorkflowRoundTrip, runBench } from './lib/baseline';
import { cpuMeter, formatCpu } from './lib/cpu';
import { startProfile } from './lib/profile';
import { benchOperator, post, startBenchStack } from './lib/stack';
import { measure, percentile, say } from './lib/stats';
import { eventToWaitingRun } from './lib/waitForEvent';

const SEQUENTIAL_EVENTS = 100;
const PACED_EVENTS = 100;
const PACED_PER_SECOND = 10;
const BARE_RUNS = 100;
const PHASE_TIME_LIMIT_MS = 30_000;
const RUN_TIMEOUT_MS = 15_000;
const WAITING_RUNS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  name: string;
  count: number;
  p50: number;
  p95: number;
}
const row = (name: string, sorted: number[]): Row => ({ name, count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95) });

/** The completion time of the run started by the event with this `reference`, once it finished. */
async function completedAt(db: Db, workflowId: string, reference: string): Promise<Date | undefined> {
  // A run's payload is sealed (docs/security.md): find it through the event's outbox row and the run's Temporal id.
  const found = await db('automation_runs as r')
    .joinRaw(`JOIN outbox_events o ON r.temporal_workflow_id = 'automation-event-' || r.automation_id || '-' || o.id`)
    .join('entity_events as e', 'e.id', 'o.source_event_id')
    .where({ 'r.automation_id': workflowId })
    .whereNot({ 'r.status': 'running' })
    .whereRaw(`e.data ->> 'reference' = ?`, [reference])
    .first<{ status: string; completed_at: Date; error: unknown } | undefined>('r.status', 'r.completed_at', 'r.error');
  if (found && found.status !== 'completed') throw new Error(`run for ${reference} ${found.status}: ${JSON.stringify(found.error)}`);
  return found?.completed_at;
}

async function waitCompleted(db: Db, workflowId: string, reference: string): Promise<Date> {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const at = await completedAt(db, workflowId, reference);
    if (at) return at;
    if (Date.now() > deadline) throw new Error(`no completed run for ${reference} within ${RUN_TIMEOUT_MS} ms`);
    await sleep(5);
  }
}

async function main(): Promise<void> {
  say('starting PostgreSQL, Temporal, worker and API…');
  const stack = await startBenchStack({}, (line) => process.stderr.write(`${line}\n`));
  try {
    const { deps, url, db } = stack;
    const { apiKey, operatorId } = await benchOperator(url);
    await post(url, '/operator-data-api/settings', { templateId: IGAMING_TEMPLATE_ID, reportingCurrency: 'EUR' }, apiKey, 'PUT');
    await post(url, '/operator-data-api/entities', { externalId: 'p-1', entityType: 'player', data: { country: 'MT' } }, apiKey);
    const workflow = await post(
      url,
      '/workflows-api/workflows',
      {
        name: 'Bench deposit flag',
        description: 'One action per transaction event',
        active: true,
        nodes: [
          { id: 'start', type: 'trigger.event', params: { event: 'entity_event.transaction' } },
          {
            id: 'flag',
            type: 'action.set_state',
            params: { externalId: '{{ trigger.entity.externalId }}', key: 'risk_score', value: '{{ trigger.data.amount / 100 }}' },
          },
        ],
        edges: [{ from: 'start', to: 'flag' }],
      },
      apiKey,
    );
    const workflowId = workflow.data.id as string;

    let sequence = 0;
    /** Writes one transaction event; resolves with its reference and the write's start time. */
    const writeEvent = async () => {
      const reference = `bench-${++sequence}`;
      const writtenAt = Date.now();
      await post(
        url,
        '/operator-data-api/entities/p-1/events',
        { eventType: 'transaction', data: { type: 'deposit', amount: 100 + sequence, currency: 'EUR', reference } },
        apiKey,
      );
      return { reference, writtenAt };
    };
    const eventToRun = async (): Promise<number> => {
      const { reference, writtenAt } = await writeEvent();
      return (await waitCompleted(db, workflowId, reference)).getTime() - writtenAt;
    };
    const bareWorkflow = bareWorkflowRoundTrip(deps.temporal);

    say('warming up…');
    await measure(bareWorkflow, { count: 20, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS });
    for (let n = 0; n < 20; n += 1) await eventToRun();

    say('measuring…');
    const quiet = row(
      'bare, 200 ms apart',
      (await measure(bareWorkflow, { count: BARE_RUNS, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS, gapMs: 200 })).latencies,
    );
    const bare = row('bare, back to back', (await measure(bareWorkflow, { count: BARE_RUNS, concurrency: 1, timeLimitMs: PHASE_TIME_LIMIT_MS })).latencies);

    const meter = cpuMeter({
      node: { pid: stack.pids.node, tree: false },
      postgres: { pid: stack.pids.postgres, tree: true },
      temporal: { pid: stack.pids.temporal, tree: true },
    });
    const profiling = await startProfile();
    const sequential: number[] = [];
    const sequentialDeadline = Date.now() + PHASE_TIME_LIMIT_MS;
    while (sequential.length < SEQUENTIAL_EVENTS && Date.now() < sequentialDeadline) sequential.push(await eventToRun());
    const profile = await profiling.stop('workflows-event-to-run', sequential.length);
    const cpu = meter.perOperation(sequential.length);
    const oneAtATime = row(
      'event → run, one at a time',
      sequential.sort((a, b) => a - b),
    );

    // Open loop: events written at a steady rate without waiting for their runs, then every run looked up.
    const written: Array<{ reference: string; writtenAt: number }> = [];
    const pacedStart = Date.now();
    for (let n = 0; n < PACED_EVENTS; n += 1) {
      await sleep(Math.max(0, pacedStart + (n * 1000) / PACED_PER_SECOND - Date.now()));
      written.push(await writeEvent());
    }
    const paced = await Promise.all(written.map(async ({ reference, writtenAt }) => (await waitCompleted(db, workflowId, reference)).getTime() - writtenAt));
    const atRate = row(
      `event → run, ${PACED_PER_SECOND}/s`,
      paced.sort((a, b) => a - b),
    );

    const resumed = await eventToWaitingRun({ url, db, deps, apiKey, operatorId }, WAITING_RUNS, PHASE_TIME_LIMIT_MS);
    const waiting: Row = { name: 'event → waiting run resumed', ...resumed };

    say('');
    say(`${'case'.padEnd(28)} ${'count'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
    for (const line of [quiet, bare, oneAtATime, atRate, waiting]) {
      say(`${line.name.padEnd(28)} ${String(line.count).padStart(6)} ${line.p50.toFixed(2).padStart(8)} ${line.p95.toFixed(2).padStart(8)}`);
    }
    say('');
    say(
      `ratio event → run / quiet bare: one at a time p50 ${(oneAtATime.p50 / quiet.p50).toFixed(2)}, ${PACED_PER_SECOND}/s p50 ${(atRate.p50 / quiet.p50).toFixed(2)}`,
    );
    say(`ratio event → run / back-to-back bare: one at a time p50 ${(oneAtATime.p50 / bare.p50).toFixed(2)}, p95 ${(oneAtATime.p95 / bare.p95).toFixed(2)}`);
    say(`CPU per event → run, one at a time (the 5 ms completion polling included): ${formatCpu(cpu)}`);
    say(`profiled (one at a time): ${profile}`);
    say(
      '(event → run: from the start of the event POST to the run’s completed_at; bare: the diagnostics workflow, one normal activity, started and awaited through temporal/)',
    );
    say(
      '(event → waiting run resumed: a run waiting in action.wait_for_event, from the start of the event POST to the run’s completed_at; tools/bench/lib/waitForEvent.ts)',
    );
  } finally {
    await stack.stop();
  }
}

runBench(main);
