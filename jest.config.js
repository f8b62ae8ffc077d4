/** Jest runs TypeScript through SWC; type checking is `tsc --noEmit` in `npm test`. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // Tests that read a web/src module name it as ESM does (`.js`, what root tsc's node16 resolution asks for); jest loads the .ts.
  moduleNameMapper: { '^(.*/web/src/.*)\\.js$': '$1.ts' },
  globalSetup: '<rootDir>/test/setup/globalSetup.ts',
  globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
  testResultsProcessor: '<rootDir>/test/setup/resultsFile.js',
  testTimeout: 60000,
  maxWorkers: 2,
};
