import { Counter, Gauge, type Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { Db } from '../../db/knex';
import { readMetricsSnapshot, type MetricsSnapshot } from '../../db/queries/metrics';

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
  max: number;
}

/**
 * Gauges read when Prometheus scrapes, not kept up on the hot paths: the database figures come from one
 * statement per scrape (shared by every gauge of that scrape), the pool's from knex's tarn pool in memory.
 * The database figures are cluster-wide (every API instance reports the same values: aggregate with max).
 */
export function registerCollectedGauges(registry: Registry, db: Db, logger: Logger): void {
  const failures = new Counter({
    name: 'platform_metrics_snapshot_failures_total',
    help: 'Scrapes whose database snapshot failed (its gauges were left out)',
    registers: [registry],
  });
  // prom-client collects every metric of a scrape at once: the gauges of one scrape join the read in flight.
  let inFlight: Promise<MetricsSnapshot | null> | null = null;
  const snapshot = (): Promise<MetricsSnapshot | null> => {
    inFlight ??= readMetricsSnapshot(db)
      .catch((error: unknown) => {
        failures.inc();
        logger.warn({ err: { message: (error as Error).message } }, 'metrics snapshot failed');
        return null;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  const fromSnapshot = (name: string, help: string, pick: (s: MetricsSnapshot) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const s = await snapshot();
        if (s) this.set(pick(s));
      },
    });
  fromSnapshot('platform_outbox_backlog', 'Internal events waiting for the event dispatcher', (s) => s.outboxBacklog);
  fromSnapshot('platform_outbox_lag_seconds', 'Age of the oldest internal event waiting for dispatch (0 when none waits)', (s) => s.outboxLagSeconds);
  fromSnapshot('platform_automation_runs_running', 'Automation runs in status running', (s) => s.runsRunning);
  new Gauge({
    name: 'platform_gateway_circuits',
    help: 'Gateway circuit breakers (one per operator and provider) by provider origin and state',
    labelNames: ['provider', 'state'] as const,
    registers: [registry],
    async collect() {
      const s = await snapshot();
      if (!s) return;
      this.reset();
      for (const circuit of s.circuits) this.set({ provider: circuit.provider, state: circuit.state }, circuit.count);
    },
  });

  const pool = () => (db.client as { pool?: TarnPool }).pool;
  new Gauge({
    name: 'platform_db_pool_connections',
    help: "This process's database pool: connections used, free, and acquires and creates pending",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = pool();
      if (!p) return;
      this.set({ state: 'used' }, p.numUsed());
      this.set({ state: 'free' }, p.numFree());
      this.set({ state: 'pending_acquire' }, p.numPendingAcquires());
      this.set({ state: 'pending_create' }, p.numPendingCreates());
    },
  });
  new Gauge({
    name: 'platform_db_pool_max',
    help: "This process's database pool size limit",
    registers: [registry],
    collect() {
      const p = pool();
      if (p) this.set(p.max);
    },
  });
}
