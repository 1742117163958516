// ESLint over the server, the web app, the client package, the tests, benches and scripts: `npm run lint` (with the
// dependency rules of .dependency-cruiser.cjs). The rules are the ones the code already keeps, so a finding is a
// slip, not a matter of taste. Type-aware (typescript-eslint's project service reads tsconfig.json and
// web/tsconfig.json): a floating promise can only be seen with types, and it is the bug this linter is here for —
// a promise nobody awaits loses its rejection (an unhandled rejection ends the process) and its ordering.
import { defineConfig, globalIgnores } from 'eslint/config';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['**/dist/', '**/node_modules/', 'data/', '.test-cache/', 'bench/results/', '.dist-*/', '.scratch*/']),
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // Node built-ins, then packages, then the project's modules from farther to nearer (../ before ./); within a
      // group the order is the author's (grouped by meaning more often than by name).
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          'newlines-between': 'ignore',
        },
      ],
      'import-x/first': 'error',
      'import-x/no-duplicates': 'error',
    },
  },
  {
    // In no TypeScript project: plain JavaScript (bin/, scripts/, worker entry points, build helpers) and the tools'
    // config files.
    files: ['**/*.{js,mjs}', 'web/vite.config.ts', 'vitest.config.ts', 'drizzle.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests and benches read answers whose shape is the assertion's business, not the type system's.
    files: ['test/**', 'clients/typescript/test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
