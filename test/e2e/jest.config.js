/**
 * Browser tests (`npm run test:e2e`, the last step of `npm test`): headless Chromium driven by
 * playwright-core against the real stack (the same global setup as the integration suite: PostgreSQL,
 * Temporal and a worker) and the real app serving the built dashboard. One file at a time: a browser
 * beside the API on 2 cores is enough load, and the timing budget is measured here.
 */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/e2e'],
  testMatch: ['**/*.e2e.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  globalSetup: '<rootDir>/test/setup/globalSetup.ts',
  globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
  testResultsProcessor: '<rootDir>/test/setup/resultsFile.js',
  testTimeout: 120000,
  maxWorkers: 1,
};
