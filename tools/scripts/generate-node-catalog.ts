/**
 * Writes the dashboard's generated copy of the node types (tools/scripts/nodeCatalog.ts) after a node type's folder under
 * core/automations/nodes/ changed. Usage: npm run generate:nodes; with `--check`, writes nothing and exits 1 naming
 * each file that differs from what it would write (test/unit/nodeCatalog.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderNodeCatalog } from './nodeCatalog';

const check = process.argv.includes('--check');

renderNodeCatalog()
  .then((files) => {
    if (check) {
      const stale = files.filter(({ file, text }) => readFileSync(file, 'utf8') !== text).map(({ file }) => file);
      if (stale.length > 0) {
        process.stderr.write(`stale, run npm run generate:nodes: ${stale.join(', ')}\n`);
        process.exit(1);
      }
      return;
    }
    for (const { file, text } of files) writeFileSync(file, text);
    process.stdout.write(`wrote ${files.map(({ file }) => file).join(', ')}\n`);
  })
  .catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  });
