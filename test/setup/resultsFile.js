/**
 * jest's `testResultsProcessor` for both jest configs: when `TEST_RESULTS_DIR` is set (`.ci/run` sets it), writes the
 * run's counts (the same as `jest --json` reports) there as one file per jest run, so CI can end with the totals of
 * every suite it ran (`tools/scripts/ci-totals.ts`). Without the variable it does nothing.
 */
const fs = require('node:fs');
const path = require('node:path');

module.exports = (results) => {
  const dir = process.env.TEST_RESULTS_DIR;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    const counts = {
      numPassedTests: results.numPassedTests,
      numFailedTests: results.numFailedTests,
      numPendingTests: results.numPendingTests,
      numRuntimeErrorTestSuites: results.numRuntimeErrorTestSuites,
      success: results.success,
    };
    fs.writeFileSync(path.join(dir, `jest-${Date.now()}-${process.pid}.json`), JSON.stringify(counts));
  }
  return results;
};
