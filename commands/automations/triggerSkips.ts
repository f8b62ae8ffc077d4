import { dispatchLag } from '../../db/queries/outboxDispatch';
import { listTriggerSkips, type TriggerSkipReason } from '../../db/queries/triggerSkips';
import type { CommandDeps } from '../deps';
import { requireAutomation } from './lookup';

/** One event an automation heard and started no run for, its message opened. */
export interface SkippedTrigger {
  id: string;
  workflowVersion: number;
  nodeId: string | null;
  eventId: string;
  event: string;
  reason: TriggerSkipReason;
  code: string;
  message: string;
  /** Run control's key the trigger was held back under; null for the dispatcher's skips. */
  key: string | null;
  createdAt: Date;
}

const RETIRED = 'The message cannot be read (its key was retired)';

/**
 * The operator's workflow's skipped triggers, newest first (docs/workflows.md "Skipped triggers"):
 * `WORKFLOW_NOT_FOUND` for an unknown workflow and another operator's alike. A message whose key was retired reads as
 * such (and its run-control key as null), never as the sealed text.
 */
export async function listSkippedTriggers(
  deps: Pick<CommandDeps, 'db' | 'keyring'>,
  input: { operatorId: string; id: string; limit: number; before?: string; reason?: TriggerSkipReason },
): Promise<SkippedTrigger[]> {
  const automation = await requireAutomation(deps, input.operatorId, input.id);
  const rows = await listTriggerSkips(deps.db, input.operatorId, automation.id, input);
  const context = `trigger-skip:${input.operatorId}:${automation.id}`;
  const opened = (sealed: string | null): string | null => {
    if (sealed === null) return null;
    try {
      return deps.keyring.decrypt(sealed, context);
    } catch {
      return null;
    }
  };
  return rows.map((row) => {
    const message = opened(row.message) ?? RETIRED;
    return {
      id: row.id,
      workflowVersion: row.automation_version,
      nodeId: row.node_id,
      eventId: row.event_id,
      event: row.event,
      reason: row.reason,
      code: row.code,
      message,
      key: opened(row.run_key),
      createdAt: row.created_at,
    };
  });
}

/** Pending events counted up to this: enough to say "thousands", cheap to count. */
const LAG_COUNT_CAP = 100_000;

/** How far the operator's event dispatch is behind: pending events and the oldest one's age in seconds. */
export async function readDispatchLag(deps: Pick<CommandDeps, 'db'>, operatorId: string): Promise<{ pending: number; oldestSeconds: number }> {
  return dispatchLag(deps.db, operatorId, LAG_COUNT_CAP);
}
