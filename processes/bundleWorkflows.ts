/** Bundles `workflows/` once into a file that workers load with `WORKFLOW_BUNDLE_PATH` (tests, images). */
import { writeWorkflowBundle } from './workflowBundle';

async function main(): Promise<void> {
  const target = process.argv[2];
  if (!target) throw new Error('usage: bundle-workflows <output.js>');
  await writeWorkflowBundle(target);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
