import { writeFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../worker/workflowBundle';

/** Bundles `workflows/` (worker/workflowBundle.ts) into `file`, for `WORKFLOW_BUNDLE_PATH`: a worker that loads it starts in seconds instead of bundling for itself. */
export async function writeWorkflowBundle(file: string): Promise<void> {
  const { code } = await bundleWorkflowCode(workflowBundleOptions());
  writeFileSync(file, code);
}
