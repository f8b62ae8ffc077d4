/**
 * `npm run fuzz`: Schemathesis against a throw-away full stack on loopback, with the document the app
 * serves at /openapi.json (so every area that registers its routes is fuzzed). Exits non-zero on any
 * finding, or when fewer cases ran than asked for. Flags: see tools/fuzz/options.ts.
 */
import { restrictToLoopback } from '../fuzz/loopbackOnly';
import { parseFuzzArgs } from '../fuzz/options';
import { runFuzz } from '../fuzz/run';

restrictToLoopback();
const say = (line: string) => process.stdout.write(`${line}\n`);

runFuzz(parseFuzzArgs(process.argv.slice(2)), say)
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`fuzz: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  });
