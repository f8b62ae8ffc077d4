import type { Db } from '../../../db/knex';
import type { DispatchContext, DispatchTenant } from './dispatchSetup';
import { transaction } from './dispatchSetup';
import { leanClient } from './httpClient';
import { abba, percentile } from './stats';

/** Probe latencies of one phase, or of phases pooled. */
export interface Probed {
  /** Event POST start → the run row's `started_at`, ms, ascending. */
  latencies: number[];
  sent: number;
  /** Probe events the API did not accept (answered other than 201). */
  refused: number;
  /** Accepted probe events whose run had not started when the look-up gave up: lost, or later than the bench waits. */
  lost: number;
  /** Event POST start → its outbox row's `occurred_at` (the API's insert transaction began), ms, ascending. */
  toOutbox: number[];
  /** Event POST start → the dispatcher's pass that took it began (`dispatched_at`: its transaction's start), ms, ascending. */
  toPass: number[];
  /** That pass's start → the run row's `started_at`: the pass, Temporal's start and the run's first task, ms, ascending. */
  passToRun: number[];
  /** The slowest probes' runs (at most {@link SLOWEST}), slowest first: their Temporal ids and when their pass began. */
  slowest: SlowProbe[];
}

/** A probe's run, to explain where its time went (tools/bench/lib/dispatchExplain.ts). */
export interface SlowProbe {
  latency: number;
  /** When it was sent, ms after the phase's first probe. */
  sentAfter: number;
  workflowId: string;
  writtenAt: number;
  passAt: number;
  startedAt: number;
}

const SLOWEST = 5;

export interface ProbeOptions {
  perSecond: number;
  count: number;
  /** How long after the last probe its runs are looked for. */
  settleMs: number;
}

interface Written {
  eventId: string;
  operatorId: string;
  writtenAt: number;
}

const LOOKUP_INTERVAL_MS = 250;
const QUIET_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const client = leanClient(32);

export const p95 = (probed: Probed) => percentile(probed.latencies, 95);

/** A probe's run as the database has it: when it started, when its pass began, when its outbox row was written. */
interface RunStart {
  startedAt: number;
  passAt: number;
  outboxAt: number;
  workflowId: string;
}

/** The outbox's last `seq` now: every probe written after this has a higher one. */
async function outboxFloor(db: Db): Promise<string> {
  const { rows } = await db.raw<{ rows: Array<{ seq: string }> }>('SELECT coalesce(max(seq), 0)::text AS seq FROM outbox_events');
  return rows[0]!.seq;
}

/**
 * The start time of each probe's run, found through the event: the run's Temporal id is
 * `automation-event-<automation>-<outbox id>` and the outbox row points at the event (`source_event_id`), as
 * `bench:automations` finds its runs. Two range reads on their indexes — the probes' outbox rows after `floor` by
 * (operator, seq), the operators' event runs since `since` by (operator, started_at) — joined here: a join in SQL on
 * the id's suffix read every run since `since`, and took 1.4 s a look beside 2,000 waiting runs, in the very database
 * whose CPU the bench measures. A run can start before the pass that started it commits its event's mark (the start
 * is idempotent by its id); such a probe is read again on the next poll, once its pass time is known. An event with
 * several runs counts its first.
 */
async function runStarts(db: Db, pending: Written[], since: Date, floor: string): Promise<Map<string, RunStart>> {
  const operators = [...new Set(pending.map((w) => w.operatorId))];
  const outbox = await db.raw<{ rows: Array<{ id: string; event_id: string; dispatched_at: Date; occurred_at: Date }> }>(
    `SELECT id, source_event_id AS event_id, dispatched_at, occurred_at FROM outbox_events
      WHERE operator_id = ANY(:operators) AND seq > :floor AND source_event_id = ANY(:events) AND dispatched_at IS NOT NULL`,
    { operators, floor, events: pending.map((w) => w.eventId) },
  );
  if (outbox.rows.length === 0) return new Map();
  const runs = await db.raw<{ rows: Array<{ automation_id: string; temporal_workflow_id: string; started_at: Date }> }>(
    `SELECT automation_id, temporal_workflow_id, started_at FROM automation_runs
      WHERE operator_id = ANY(:operators) AND started_at >= :since AND source = 'event'`,
    { operators, since },
  );
  const runOf = new Map(runs.rows.map((r) => [r.temporal_workflow_id.slice(`automation-event-${r.automation_id}-`.length), r]));
  const found = new Map<string, RunStart>();
  for (const row of outbox.rows) {
    const run = runOf.get(row.id);
    const seen = found.get(row.event_id);
    if (!run || (seen && seen.startedAt <= run.started_at.getTime())) continue;
    found.set(row.event_id, {
      startedAt: run.started_at.getTime(),
      passAt: row.dispatched_at.getTime(),
      outboxAt: row.occurred_at.getTime(),
      workflowId: run.temporal_workflow_id,
    });
  }
  return found;
}

/** How many probes each tenant was sent: its next probe goes to the next of its probe players. */
const probesSent = new WeakMap<DispatchTenant, number>();

async function writeProbe(ctx: DispatchContext, tenant: DispatchTenant, amount: number, reference: string): Promise<Written | undefined> {
  const sent = probesSent.get(tenant) ?? 0;
  probesSent.set(tenant, sent + 1);
  const player = tenant.probes[sent % tenant.probes.length]!;
  const writtenAt = Date.now();
  const answer = await client.send(
    'POST',
    `${ctx.url}/operator-data-api/entities/${player}/events`,
    { 'content-type': 'application/json', authorization: `Bearer ${tenant.apiKey}` },
    JSON.stringify(transaction(amount, reference)),
  );
  if (answer.status !== 201) return undefined;
  const eventId = (JSON.parse(answer.body) as { data: { id: string } }).data.id;
  return { eventId, operatorId: tenant.operatorId, writtenAt };
}

let sequence = 0;

/**
 * Event → run start: `count` probe events at `perSecond`, open loop (on schedule, whatever the answers' pace), the
 * i-th to `target(i)` (a tenant and an amount its automation's filter takes), then each one's run start read from the
 * database. One run per probe is expected; a probe without one by `settleMs` after the last is counted lost.
 *
 * @example const alone = await probeEventToRun(ctx, () => ({ tenant, amount: 1 }), { perSecond: 20, count: 200, settleMs: 30_000 })
 */
export async function probeEventToRun(
  ctx: DispatchContext,
  target: (i: number) => { tenant: DispatchTenant; amount: number },
  options: ProbeOptions,
): Promise<Probed> {
  const since = new Date(Date.now() - 1000);
  const floor = await outboxFloor(ctx.db);
  const writes: Array<Promise<Written | undefined>> = [];
  const start = Date.now();
  for (let i = 0; i < options.count; i += 1) {
    await sleep(Math.max(0, start + (i * 1000) / options.perSecond - Date.now()));
    const { tenant, amount } = target(i);
    writes.push(writeProbe(ctx, tenant, amount, `probe-${++sequence}`).catch(() => undefined));
  }
  const written = (await Promise.all(writes)).filter((w): w is Written => w !== undefined);
  const latencies: number[] = [];
  const toOutbox: number[] = [];
  const toPass: number[] = [];
  const passToRun: number[] = [];
  const runs: SlowProbe[] = [];
  let pending = written;
  const deadline = Date.now() + options.settleMs;
  while (pending.length > 0 && Date.now() < deadline) {
    const started = await runStarts(ctx.db, pending, since, floor);
    for (const w of pending) {
      const run = started.get(w.eventId);
      if (!run) continue;
      latencies.push(run.startedAt - w.writtenAt);
      toOutbox.push(run.outboxAt - w.writtenAt);
      toPass.push(run.passAt - w.writtenAt);
      passToRun.push(run.startedAt - run.passAt);
      runs.push({
        latency: run.startedAt - w.writtenAt,
        sentAfter: w.writtenAt - start,
        workflowId: run.workflowId,
        writtenAt: w.writtenAt,
        passAt: run.passAt,
        startedAt: run.startedAt,
      });
    }
    pending = pending.filter((w) => !started.has(w.eventId));
    if (pending.length > 0) await sleep(LOOKUP_INTERVAL_MS);
  }
  const ascending = (values: number[]) => values.sort((a, b) => a - b);
  return {
    latencies: ascending(latencies),
    sent: options.count,
    refused: options.count - written.length,
    lost: pending.length,
    toOutbox: ascending(toOutbox),
    toPass: ascending(toPass),
    passToRun: ascending(passToRun),
    slowest: slowestOf(runs),
  };
}

const slowestOf = (runs: SlowProbe[]) => [...runs].sort((a, b) => b.latency - a.latency).slice(0, SLOWEST);

/** Phases pooled: latencies merged, counts summed. */
export const pooledProbes = (phases: Probed[]): Probed => ({
  latencies: phases.flatMap((p) => p.latencies).sort((a, b) => a - b),
  sent: phases.reduce((n, p) => n + p.sent, 0),
  refused: phases.reduce((n, p) => n + p.refused, 0),
  lost: phases.reduce((n, p) => n + p.lost, 0),
  toOutbox: phases.flatMap((p) => p.toOutbox).sort((a, b) => a - b),
  toPass: phases.flatMap((p) => p.toPass).sort((a, b) => a - b),
  passToRun: phases.flatMap((p) => p.passToRun).sort((a, b) => a - b),
  slowest: slowestOf(phases.flatMap((p) => p.slowest)),
});

/**
 * Two cases measured in phases A B B A (`pairs` pairs), pooled per case: this machine's speed drifts by up to 2× over
 * tens of seconds (docs/benchmarks.md), so neither case gets all the fast or all the slow stretch.
 */
export async function abbaProbes(a: () => Promise<Probed>, b: () => Promise<Probed>, pairs: number): Promise<[Probed, Probed]> {
  const [first, second] = await abba(a, b, pairs);
  return [pooledProbes(first), pooledProbes(second)];
}

/** Outbox rows of the operator not yet dispatched: the dispatcher's backlog for it. */
export const backlogOf = async (db: Db, operatorId: string) =>
  Number((await db('outbox_events').whereNull('dispatched_at').where({ operator_id: operatorId }).count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);

/** Runs of the operator's automations started by events, so far. */
export const eventRunCount = async (db: Db, operatorId: string) =>
  Number((await db('automation_runs').where({ operator_id: operatorId, source: 'event' }).count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);

/**
 * Waits until the operator's event runs reach `expected`, or its backlog is empty and its run count has not moved for
 * QUIET_MS (the dispatcher is done with its events and will start no more: the rest are lost), or `limitMs` passes.
 * Resolves with the runs counted and the backlog left, so a dispatcher that drops events is not waited for in vain.
 */
export async function settledRuns(db: Db, operatorId: string, expected: number, limitMs: number): Promise<{ runs: number; backlog: number; seconds: number }> {
  const begin = Date.now();
  let last = { runs: -1, backlog: -1, since: begin };
  while (Date.now() - begin < limitMs) {
    const [runs, backlog] = await Promise.all([eventRunCount(db, operatorId), backlogOf(db, operatorId)]);
    if (runs !== last.runs || backlog !== last.backlog) last = { runs, backlog, since: Date.now() };
    if (runs >= expected || (backlog === 0 && Date.now() - last.since >= QUIET_MS)) break;
    await sleep(500);
  }
  return { runs: last.runs, backlog: last.backlog, seconds: (Date.now() - begin) / 1000 };
}
