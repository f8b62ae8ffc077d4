// @ts-check
/**
 * Lint: typescript-eslint's recommended rules (no type-aware rules: `tsc --noEmit` already type-checks, and a typed
 * lint would double the time of `npm test`), the layers of docs/running.md#layout as import rules, and no file-level
 * import cycles. Formatting is Prettier's alone (.prettierrc.json); eslint-config-prettier switches off the rules
 * that would fight it.
 */
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * What each server folder may import, lowest layer first. A folder missing from a list is out of reach: an import
 * never runs from a lower layer to a higher one, and no folder imports one that imports it back.
 */
const LAYERS = {
  core: [],
  sandbox: ['core'],
  db: ['core'],
  devstack: ['core', 'db'],
  commands: ['core', 'db', 'sandbox'],
  activities: ['core', 'db', 'sandbox', 'commands'],
  workflows: ['core', 'sandbox', 'activities'],
  temporal: ['core', 'db', 'workflows'],
  api: ['core', 'sandbox', 'db', 'commands', 'temporal'],
  worker: ['core', 'sandbox', 'db', 'commands', 'activities', 'workflows', 'temporal'],
  processes: ['core', 'sandbox', 'db', 'devstack', 'commands', 'activities', 'workflows', 'temporal', 'api', 'worker'],
};
const SERVER = Object.keys(LAYERS);
const zones = Object.entries(LAYERS)
  .map(([folder, allowed]) => ({
    target: `./${folder}`,
    from: SERVER.filter((other) => other !== folder && !allowed.includes(other)).map((other) => `./${other}`),
    message: `${folder}/ may import only ${allowed.join(', ') || 'packages'} (docs/running.md#layout).`,
  }))
  .filter((zone) => zone.from.length > 0);
/**
 * The product never reaches into tools/ (docs/running.md#layout): what `npm start`, `npm run api|worker|cli|build` and the
 * image run is built from the server folders alone, so no tool can become a run-time dependency by accident.
 */
const noTools = SERVER.map((folder) => ({
  target: `./${folder}`,
  from: './tools',
  message: `${folder}/ is the product: it may not import tools/ (docs/running.md#layout).`,
}));

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.tools/**', 'coverage/**', 'test-artifacts/**', 'web/src/api/schema.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } } },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...zones, ...noTools] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // Handlers get their input, caller and raw parts from their declaration (api/handler.ts, docs/openapi-and-fuzzing.md
    // "Declaring an endpoint"): none reads the request or casts its caller itself. The middleware that parses, validates and
    // authenticates is where those reads live; the analytics guard routes by `format` before validation.
    files: ['api/**/*.ts'],
    ignores: ['api/middleware/**', 'api/handler.ts', 'api/analytics-api/context.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.type='MemberExpression'][object.object.name='ctx'][object.property.name='request'][property.name=/^(body|query|params|rawBody)$/]",
          message: "Declare the part in the endpoint's `input` (validated) or `raw` and read it from the handler's argument.",
        },
        {
          selector: "MemberExpression[object.name='ctx'][property.name=/^(query|params|querystring)$/]",
          message: "Declare the part in the endpoint's `input` (validated) or `raw` and read it from the handler's argument.",
        },
        {
          selector: 'TSAsExpression TSTypeReference[typeName.name=/Principal$/]',
          message: "The caller is the handler's `principal`, typed by the area's `principal` reader: no cast.",
        },
        {
          selector: 'CallExpression[callee.name=/^(operatorOf|principalOf)$/]',
          message: "Read the caller from the handler's `principal` (the area declares its reader in area.ts).",
        },
      ],
    },
  },
  {
    // Tests and tools read arbitrary JSON bodies; the server code keeps `unknown` and narrows.
    files: ['test/**', 'tools/bench/**', 'tools/chaos/**', 'tools/fuzz/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
