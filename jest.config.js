/** Jest runs TypeScript through SWC; type checking is `tsc --noEmit` in `npm test`. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
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
