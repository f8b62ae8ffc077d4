import type { Logger } from 'pino';
import { findRunningMcpCall } from '../../db/queries/automationRuns';
import { cancelAutomationRun } from '../../temporal/automationRuns';
import type { AppDeps } from '../deps';

/** A `tools/call` this instance is waiting on. */
interface TrackedCall {
  temporalWorkflowId: string;
  /** Stops the call's own answer (no more progress on its stream) once its cancellation is requested. */
  onCancel: () => void;
}

/** How long a cancellation keeps looking for a call another instance has started but not yet recorded. */
const LOOKUP_ATTEMPTS = 10;
const LOOKUP_INTERVAL_MS = 200;

const keyOf = (operatorId: string, requestKey: string) => `${operatorId}\u0000${requestKey}`;

/**
 * Cancellation of `tools/call` runs by MCP `notifications/cancelled` (MCP 2025-06-18 "Cancellation"). A call is
 * identified by its operator, session and JSON-RPC id (`mcpRequestKey`). The notification may reach any API
 * instance: the calls this instance waits on are found in memory (even before their run is recorded), any other
 * by the `mcp_request` its run recorded; for a call started elsewhere and not recorded yet, the lookup is retried
 * for about two seconds in the background. Cancelling asks Temporal to cancel the run's workflow, which ends the
 * run `cancelled`; a notification naming no running call changes nothing, as MCP asks.
 */
export class McpCallCancellation {
  private readonly calls = new Map<string, TrackedCall>();

  constructor(private readonly deps: Pick<AppDeps, 'db' | 'temporal'>) {}

  /** Registers a call while this instance waits on it; returns what unregisters it. */
  track(operatorId: string, requestKey: string, call: TrackedCall): () => void {
    const key = keyOf(operatorId, requestKey);
    this.calls.set(key, call);
    return () => {
      if (this.calls.get(key) === call) this.calls.delete(key);
    };
  }

  /**
   * Cancels the call's run if it can be found now; otherwise keeps looking in the background. Resolves once the
   * first attempt is done, so a caller answering the notification has already asked Temporal when it can.
   *
   * @example await cancellation.cancel(operatorId, mcpRequestKey(sessionId, 7), logger)
   */
  async cancel(operatorId: string, requestKey: string, logger: Pick<Logger, 'warn'>): Promise<void> {
    const report = (error: Error) => logger.warn({ err: { name: error.name, message: error.message } }, 'MCP cancellation failed');
    try {
      if (await this.attempt(operatorId, requestKey)) return;
    } catch (error) {
      report(error as Error);
      return;
    }
    let remaining = LOOKUP_ATTEMPTS;
    const retry = () => {
      remaining -= 1;
      this.attempt(operatorId, requestKey)
        .then((done) => {
          if (!done && remaining > 0) setTimeout(retry, LOOKUP_INTERVAL_MS).unref();
        })
        .catch(report);
    };
    setTimeout(retry, LOOKUP_INTERVAL_MS).unref();
  }

  /** True once the call was found (and its cancellation requested). */
  private async attempt(operatorId: string, requestKey: string): Promise<boolean> {
    const local = this.calls.get(keyOf(operatorId, requestKey));
    if (local) {
      local.onCancel();
      await cancelAutomationRun(this.deps.temporal, local.temporalWorkflowId);
      return true;
    }
    const recorded = await findRunningMcpCall(this.deps.db, operatorId, requestKey);
    if (!recorded) return false;
    await cancelAutomationRun(this.deps.temporal, recorded.temporal_workflow_id);
    return true;
  }
}
