import { DefaultLogger, type BundleOptions } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../temporal/dataConverter';
import { WORKFLOW_INTERCEPTOR_MODULES } from './tracing';

/**
 * Scope hoisting (webpack's `concatenateModules`, off in the development mode the SDK bundles in): the ES modules of
 * `workflows/` and what it imports from `core/` become one module, so a run evaluates and keeps one function instead of
 * one per file. Each node type's `flow.ts` is a file of its own (core/automations/nodes/), and each file cost every
 * cached run its module record: 76 KiB cached per run before the node folders, 88 KiB after, 71 KiB hoisted
 * (`npm run bench:workflow-cost`, docs/workflows.md#what-a-run-costs-the-worker). Evaluation order and behaviour are
 * webpack's guarantee to keep; the saved histories replay on the hoisted bundle (test/replay).
 */
export const hoistWorkflowModules: NonNullable<BundleOptions['webpackConfigHook']> = (config) => ({
  ...config,
  optimization: { ...config.optimization, concatenateModules: true, usedExports: true },
});

/**
 * The one way `workflows/` is bundled, whether a worker bundles for itself or `WORKFLOW_BUNDLE_PATH` is written
 * beforehand (processes/workflowBundle.ts): the failure converter the workers' data converter names, the tracing
 * interceptors whose sink every worker registers (worker/tracing.ts), and scope hoisting.
 */
export function workflowBundleOptions(): BundleOptions {
  return {
    workflowsPath: require.resolve('../workflows'),
    failureConverterPath: FAILURE_CONVERTER_PATH,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: new DefaultLogger('WARN'),
    webpackConfigHook: hoistWorkflowModules,
  };
}
