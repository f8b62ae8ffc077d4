import { writeFileSync } from 'node:fs';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../temporal/dataConverter';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../worker/tracing';

/**
 * Bundles `workflows/` (with the failure converter the workers' data converter names, and the tracing interceptors
 * whose sink every worker registers: worker/tracing.ts) into `file`, for `WORKFLOW_BUNDLE_PATH`: a worker that loads
 * it starts in seconds instead of bundling for itself.
 */
export async function writeWorkflowBundle(file: string): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    failureConverterPath: FAILURE_CONVERTER_PATH,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: new DefaultLogger('WARN'),
  });
  writeFileSync(file, code);
}
