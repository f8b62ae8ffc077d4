import { patched } from '@temporalio/workflow';

/**
 * Whether this run takes a patch's new path (docs/workflows.md#versioning). A run of `automationRunWorkflow` asks
 * Temporal (`patched`), which records a marker and upserts `TemporalChangeVersion` the first time, on every new run;
 * a run of a workflow type registered after a patch takes its path without asking, since no history of that type
 * can come from before it.
 */
export type PatchCheck = (patchId: string) => boolean;

/** Patches in `applied` hold without a marker; any other is asked of Temporal, as every later patch will be. */
export function patchesApplied(applied: ReadonlySet<string>): PatchCheck {
  return (patchId) => applied.has(patchId) || patched(patchId);
}
