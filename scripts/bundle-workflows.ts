/** Bundles `workflows/` once into a file that workers load with `WORKFLOW_BUNDLE_PATH` (tests, images). */
import { writeFileSync } from 'node:fs';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { FAILURE_CONVERTER_PATH } from '../temporal/dataConverter';

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) throw new Error('usage: bundle-workflows <output.js>');
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), failureConverterPath: FAILURE_CONVERTER_PATH, logger: new DefaultLogger('WARN') });
  writeFileSync(target, code);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
