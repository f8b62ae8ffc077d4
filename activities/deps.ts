import type { Logger } from 'pino';
import type { Config } from '../core/config';
import type { Keyring } from '../core/crypto';
import type { Db } from '../db/knex';
import type { ExpressionEvaluator } from '../sandbox/tasks';
import type { GatewayCaches } from './gateway/caches';
import type { IntakePacer } from './intakePacer';
import type { ActivityMetrics } from './metrics';
import type { PayloadBudget } from './payloadBudget';

/** Where a run goes in its organisation's share of starts: ms until its place, the run counted in flight from there. */
export interface LanePlaces {
  place(operatorId: string, runWorkflowId: string): number;
}

/**
 * What the worker gives every activity, built once per process. It lives apart from `createActivities`
 * (`activities/index.ts`) so the activity modules can take it without importing the file that imports them.
 */
export interface ActivityDeps {
  db: Db;
  config: Config;
  logger: Logger;
  keyring: Keyring;
  /**
   * The outbox dispatch pass (`worker/outboxDispatch.ts`), which the `outbox-sweep` activity runs: the worker
   * provides it, since the pass starts runs through `temporal/` and is the worker's own LISTEN loop's too.
   */
  dispatchOutbox?: () => Promise<{ claimed: number; started: number }>;
  /** The run watchdog's pass (`worker/runWatchdog.ts`), which the `run-watchdog` activity runs: it asks Temporal, so the worker provides it. */
  reconcileRuns?: () => Promise<{ checked: number; closed: number }>;
  /** Where run conditions and templates are evaluated (`sandbox/`); the worker always gives it. */
  sandbox?: ExpressionEvaluator;
  /** The pace of batch chunks beside other organisations' live runs (`activities/intakePacer.ts`); unpaced when absent. */
  intake?: IntakePacer;
  /** Places for the runs lanes release on their own in their organisation's share (`worker/lanePlaces.ts`); at once when absent. */
  lanePlaces?: LanePlaces;
  /** How much large data each operator may bring in (`activities/payloadBudget.ts`); unlimited when absent. */
  payloadBudget?: PayloadBudget;
  /** The worker's metrics (docs/metrics.md); none when absent. */
  metrics?: ActivityMetrics;
  /** Connections and breakers in memory for gateway calls (`activities/gateway/caches.ts`); read through when absent. */
  gatewayCaches?: GatewayCaches;
}
