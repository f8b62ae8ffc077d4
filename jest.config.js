/**
 * Jest runs TypeScript through SWC; type checking is `tsc --noEmit` in `npm test` (the dashboard's tests: web's own
 * check, `npm run build:web`). Besides test/, the dashboard's logic is tested beside its code (`*.test.ts(x)` under web/src,
 * docs/dashboard.md "Tests"): pure functions that need no service, runnable with the global setup switched off.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/web/src'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
    '^.+\\.tsx$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
    // @modelcontextprotocol/ext-tasks ships ESM only (its exports name no `require`): jest, which runs CommonJS, takes it
    // from its dist and compiles it like the tests.
    '/node_modules/@modelcontextprotocol/ext-tasks/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@modelcontextprotocol/ext-tasks/)'],
  // Tests that read a web/src module name it as ESM does (`.js`, what root tsc's node16 resolution asks for); jest loads the .ts.
  moduleNameMapper: {
    '^(.*/web/src/.*)\\.js$': '$1.ts',
    '^@modelcontextprotocol/ext-tasks/(client|core)$': '<rootDir>/node_modules/@modelcontextprotocol/ext-tasks/dist/$1/index.js',
  },
  globalSetup: '<rootDir>/test/setup/globalSetup.ts',
  globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
  testResultsProcessor: '<rootDir>/test/setup/resultsFile.js',
  testTimeout: 60000,
  maxWorkers: 2,
};
