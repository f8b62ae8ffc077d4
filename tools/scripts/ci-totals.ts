/**
 * The last line of `.ci/run`: `N passed, M failed` over every test CI ran — each jest run's counts
 * (`TEST_RESULTS_DIR/jest-*.json`, written by test/setup/resultsFile.js), the chaos scenarios (the
 * `N passed, M failed` line in `chaos.log`), the fuzz cases (`fuzz.log`) and the conformance scenario runs (`conformance.log`). `exitCode` is the run's: a failed
 * run whose failure no test reported (type check, install, a crashed runner) counts as one more failure.
 *
 * @example tsx tools/scripts/ci-totals.ts /tmp/ci-results 0   # 1234 passed, 0 failed
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Totals {
  passed: number;
  failed: number;
}

function jestTotals(dir: string): Totals {
  const totals = { passed: 0, failed: 0 };
  for (const file of readdirSync(dir).filter((name) => /^jest-.*\.json$/.test(name))) {
    const run = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { numPassedTests: number; numFailedTests: number; numRuntimeErrorTestSuites: number };
    totals.passed += run.numPassedTests;
    totals.failed += run.numFailedTests + run.numRuntimeErrorTestSuites;
  }
  return totals;
}

function lastMatch(file: string, pattern: RegExp): RegExpMatchArray | null {
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n').reverse();
  for (const line of lines) {
    const match = line.match(pattern);
    if (match) return match;
  }
  return null;
}

/** The chaos run's own closing line. */
function chaosTotals(dir: string): Totals {
  const match = lastMatch(path.join(dir, 'chaos.log'), /^(\d+) passed, (\d+) failed$/);
  return { passed: Number(match?.[1] ?? 0), failed: Number(match?.[2] ?? 0) };
}

/** Every generated case of the last fuzz attempt; a failed attempt counts as one failure (Schemathesis reports failures, not failed cases). */
function fuzzTotals(dir: string): Totals {
  const match = lastMatch(path.join(dir, 'fuzz.log'), /^fuzz: (\d+) cases run .*schemathesis exit code (\d+)/);
  if (!match) return { passed: 0, failed: 0 };
  return match[2] === '0' ? { passed: Number(match[1]), failed: 0 } : { passed: 0, failed: 1 };
}

/** The conformance run's closing count: scenario runs that pass; those failing only where expected are not counted. */
function conformanceTotals(dir: string): Totals {
  const match = lastMatch(
    path.join(dir, 'conformance.log'),
    /^conformance: (\d+) scenario runs pass, (\d+) fail only where expected, (\d+) fail unexpectedly, (\d+) pass where/,
  );
  if (!match) return { passed: 0, failed: 0 };
  return { passed: Number(match[1]), failed: Number(match[3]) + Number(match[4]) };
}

function main(): void {
  const [dir, exitCode = '0'] = process.argv.slice(2);
  if (!dir) throw new Error('usage: ci-totals <results dir> [exit code]');
  const parts = existsSync(dir) ? [jestTotals(dir), chaosTotals(dir), fuzzTotals(dir), conformanceTotals(dir)] : [];
  const passed = parts.reduce((sum, part) => sum + part.passed, 0);
  let failed = parts.reduce((sum, part) => sum + part.failed, 0);
  if (exitCode !== '0' && failed === 0) failed = 1;
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
}

main();
