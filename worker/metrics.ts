import { Runtime, type TelemetryOptions } from '@temporalio/worker';
import type { MetricCounter, MetricGauge, MetricHistogram } from '@temporalio/common';
import type { ActivityMetrics } from '../activities/metrics';
import type { Config } from '../core/config';
import type { SkipReason } from '../core/automations/runControl';
import type { FilterFailure, FilterWhere } from './eventFilters';

const BATCH_SECONDS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
const START_DELAY_SECONDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The Temporal runtime's Prometheus exporter on METRICS_HOST:WORKER_METRICS_PORT: the SDK's own `temporal_`
 * series and the worker's `platform_` series, on one listener. Undefined when WORKER_METRICS_PORT is unset.
 * The runtime takes it once, before the process's first connection.
 */
export function workerTelemetry(config: Config): TelemetryOptions | undefined {
  if (config.WORKER_METRICS_PORT === undefined) return undefined;
  const host = config.METRICS_HOST.includes(':') ? `[${config.METRICS_HOST}]` : config.METRICS_HOST;
  return {
    metrics: {
      prometheus: {
        bindAddress: `${host}:${config.WORKER_METRICS_PORT}`,
        histogramBucketOverrides: { platform_batch_job_duration_seconds: BATCH_SECONDS, platform_run_start_delay_seconds: START_DELAY_SECONDS },
      },
    },
  };
}

/** The worker's series: the activities' and those of the sandbox and the event dispatcher. */
export interface WorkerMetrics extends ActivityMetrics {
  /** A tenant expression stopped by its budget, in a run or an event filter. */
  expressionOverBudget(code: 'EXPRESSION_TIMEOUT' | 'EXPRESSION_MEMORY_LIMIT' | 'EXPRESSION_BUDGET_EXCEEDED'): void;
  /** A trigger filter judged for an event: on the dispatcher's thread (`inline`) or in the sandbox. */
  eventFilterJudged(where: FilterWhere): void;
  /** An event an automation heard and started no run for because its trigger filter failed (recorded as a skipped trigger). */
  eventFilterFailed(reason: FilterFailure): void;
  /** How far behind one operator's event dispatch is: the age of its oldest pending event when a pass took it. */
  dispatchLag(operatorId: string, seconds: number): void;
  /** The event-run starts per second the dispatcher admits now, and the interactive queue's backlog it followed. */
  startAdmission(runsPerSecond: number, backlogSeconds: number): void;
  /** An event trigger of a run-controlled automation that started no run because its `key` failed (the lanes count the rest). */
  triggerSkipped(reason: SkipReason): void;
  /** A payload over TEMPORAL_PAYLOAD_MAX_BYTES stored in PostgreSQL instead of Temporal. */
  payloadStored(bytes: number): void;
}

/**
 * The worker's own series, on the Temporal runtime's meter (exported with the SDK's series, unprefixed; a
 * no-op when no exporter was installed). Tagged instruments are kept per label set, so a call costs one
 * lookup and one native `add`.
 */
export function createWorkerMetrics(): WorkerMetrics {
  const meter = Runtime.instance().metricMeter;
  const gatewayCalls = meter.createCounter(
    'platform_gateway_calls_total',
    'calls',
    'Gateway calls sent or refused by the worker, by provider origin and outcome',
  );
  const batchSeconds = meter.createHistogram('platform_batch_job_duration_seconds', 'float', 's', 'Batch jobs from creation to their end, by type and status');
  const runsFinished = meter.createCounter('platform_automation_runs_finished_total', 'runs', 'Automation runs that ended, by source and status');
  const startDelay = meter.createHistogram(
    'platform_run_start_delay_seconds',
    'float',
    's',
    "Automation runs from their workflow's start on the Temporal server to their first step on this worker, by source",
  );
  const overBudget = meter.createCounter(
    'platform_expression_over_budget_total',
    'evaluations',
    "Tenant expressions stopped by their time or memory budget, or refused for their operator's share, by code",
  );
  const payloadsStored = meter.createCounter(
    'platform_temporal_payloads_stored_total',
    'payloads',
    'Payloads over TEMPORAL_PAYLOAD_MAX_BYTES kept in PostgreSQL',
  );
  const payloadBytes = meter.createCounter(
    'platform_temporal_payload_bytes_stored_total',
    'bytes',
    'Bytes of the payloads kept in PostgreSQL instead of Temporal',
  );
  const filterJudged = meter.createCounter(
    'platform_event_filter_evaluations_total',
    'evaluations',
    "Trigger filters judged for an event, by where: on the dispatcher's thread (inline) or in the sandbox",
  );
  const filterFailures = meter.createCounter(
    'platform_event_filter_failed_total',
    'events',
    'Events an automation heard and started no run for because its trigger filter failed, by reason (each also a skipped-trigger record)',
  );
  const lag = meter.createGauge(
    'platform_dispatch_lag_seconds',
    'float',
    's',
    "Age of an operator's oldest pending outbox event when the dispatcher last took its events (0 once caught up), by operator",
  );
  const admittedRate = meter.createGauge(
    'platform_dispatch_admitted_starts_per_second',
    'float',
    '1/s',
    "Event-run starts and wake-ups per second the dispatcher admits for all operators together, following Temporal's interactive queue",
  );
  const queueBacklog = meter.createGauge(
    'platform_dispatch_queue_backlog_seconds',
    'float',
    's',
    "Age of the oldest task on Temporal's interactive queue (workflow or activity) at the dispatcher's last look",
  );
  const triggersSkipped = meter.createCounter(
    'platform_automation_triggers_skipped_total',
    'triggers',
    'Event triggers of a run-controlled automation that started no run, by reason (docs/workflows.md "Run control")',
  );
  const tagged = <T>(cache: Map<string, T>, key: string, make: () => T): T => {
    let instrument = cache.get(key);
    if (!instrument) cache.set(key, (instrument = make()));
    return instrument;
  };
  const gatewayCache = new Map<string, MetricCounter>();
  const batchCache = new Map<string, MetricHistogram>();
  const runCache = new Map<string, MetricCounter>();
  const delayCache = new Map<string, MetricHistogram>();
  const budgetCache = new Map<string, MetricCounter>();
  const judgedCache = new Map<string, MetricCounter>();
  const failedCache = new Map<string, MetricCounter>();
  const lagCache = new Map<string, MetricGauge>();
  const skipCache = new Map<string, MetricCounter>();
  return {
    gatewayCall: (provider, outcome) => tagged(gatewayCache, `${provider} ${outcome}`, () => gatewayCalls.withTags({ provider, outcome })).add(1),
    batchJobFinished: (type, status, seconds) => tagged(batchCache, `${type} ${status}`, () => batchSeconds.withTags({ type, status })).record(seconds),
    runFinished: (source, status) => tagged(runCache, `${source} ${status}`, () => runsFinished.withTags({ source, status })).add(1),
    runBegun: (source, seconds) => tagged(delayCache, source, () => startDelay.withTags({ source })).record(seconds),
    expressionOverBudget: (code) => tagged(budgetCache, code, () => overBudget.withTags({ code })).add(1),
    payloadStored: (bytes) => {
      payloadsStored.add(1);
      payloadBytes.add(bytes);
    },
    eventFilterJudged: (where) => tagged(judgedCache, where, () => filterJudged.withTags({ where })).add(1),
    eventFilterFailed: (reason) => tagged(failedCache, reason, () => filterFailures.withTags({ reason })).add(1),
    dispatchLag: (operator, seconds) => tagged(lagCache, operator, () => lag.withTags({ operator })).set(seconds),
    startAdmission: (runsPerSecond, backlogSeconds) => {
      admittedRate.set(runsPerSecond);
      queueBacklog.set(backlogSeconds);
    },
    triggerSkipped: (reason) => tagged(skipCache, reason, () => triggersSkipped.withTags({ reason })).add(1),
  };
}
