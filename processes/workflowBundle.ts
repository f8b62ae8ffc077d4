import { writeFileSync } from 'node:fs';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../temporal/dataConverter';

/**
 * Bundles `workflows/` (with the failure converter the workers' data converter names) into `file`, for
 * `WORKFLOW_BUNDLE_PATH`: a worker that loads it starts in seconds instead of bundling for itself.
 */
export async function writeWorkflowBundle(file: string): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    failureConverterPath: FAILURE_CONVERTER_PATH,
    logger: new DefaultLogger('WARN'),
  });
  writeFileSync(file, code);
}
