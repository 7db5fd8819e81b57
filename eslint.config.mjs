// ESLint flat config for the whole monorepo (`npm run lint` runs `eslint . --max-warnings 0`).
// TypeScript gets type-aware linting through the project service: each file is checked with the
// tsconfig.json that includes it (backend/, frontend/, e2e/). Deliberately `recommended` plus a few
// type-aware rules that catch real bugs (floating promises above all), not the full strict set.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The front end's layers, lowest first: each may import only from those before it (and itself).
 * `api` and `lib` talk to the server and compute; `stores` hold state (no store imports another);
 * `sync` owns the socket and the replay of events over answers, and is handed its event handler;
 * `workspace` signs in and out, primes and switches a company and applies server events to the
 * stores; `hooks` and `components` are shared and know no feature; then `features`, `pages`, `app`.
 */
const FRONTEND_LAYERS = [
  ['api', 'lib'],
  ['stores'],
  ['sync'],
  ['workspace'],
  ['hooks'],
  ['components'],
  ['features'],
  ['pages'],
  ['app', 'main.tsx'],
];
const frontendLayerZones = FRONTEND_LAYERS.flatMap((layer, index) => {
  const above = FRONTEND_LAYERS.slice(index + 1).flat();
  return layer.flatMap((folder) =>
    above.length === 0
      ? []
      : above.map((higher) => ({
          target: `./${folder}`,
          from: `./${higher}`,
          message: `${folder} sits below ${higher}: the front end's layers only point down.`,
        })),
  );
});

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-*/**',
      '**/.data/**',
      '**/coverage/**',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/.artifacts/**',
      // Tool configs that no tsconfig includes (type-aware rules cannot run on them).
      'frontend/*.config.*',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  js.configs.recommended,
  ...tseslint.configs.recommended,

  // TypeScript: type information from the nearest tsconfig.json.
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },

  // Backend and Node-side TypeScript.
  {
    files: ['backend/**/*.ts', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['backend/**/*.spec.ts', 'backend/**/*.int-spec.ts', 'backend/test/**/*.ts'],
    languageOptions: { globals: { ...globals.jest } },
    rules: {
      // Test doubles often need a cast through unknown/any to satisfy Nest's provider types.
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },

  // Data access (CONTRIBUTING.md#data-access): SQL lives in `*.repository.ts`, through the Database of
  // backend/src/database; services and controllers call repositories and run transactions only.
  {
    files: ['backend/src/**/*.ts'],
    ignores: [
      'backend/src/**/*.repository.ts',
      'backend/src/database/**',
      'backend/src/**/*.spec.ts',
      'backend/src/**/*.int-spec.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['query', 'prepared', 'execute', 'createQueryBuilder', 'getRepository'].map((name) => ({
          selector: `CallExpression[callee.type='MemberExpression'][callee.property.name='${name}']`,
          message: `.${name}() outside a repository: SQL lives in *.repository.ts (CONTRIBUTING.md#data-access).`,
        })),
        ...['preparedQuery', 'InjectRepository'].map((name) => ({
          selector: `CallExpression[callee.name='${name}']`,
          message: `${name} outside a repository: SQL lives in *.repository.ts (CONTRIBUTING.md#data-access).`,
        })),
      ],
    },
  },

  // Frontend: browser globals and the rules of hooks.
  {
    files: ['frontend/**/*.ts', 'frontend/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      // Loading data in an effect and storing it in state is the normal pattern here.
      'react-hooks/set-state-in-effect': 'off',
    },
  },

  // Frontend: layers that only point down, one store never importing another, and no import cycle.
  // Tests may reach across layers to set a scene up; the code they test may not.
  {
    files: ['frontend/src/**/*.ts', 'frontend/src/**/*.tsx'],
    ignores: ['frontend/src/**/*.test.ts', 'frontend/src/**/*.test.tsx', 'frontend/src/test/**'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle reads the modules an import leads to: TypeScript ones, with TypeScript's parser.
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: `${import.meta.dirname}/frontend/src`,
          zones: [
            ...frontendLayerZones,
            {
              target: './stores/*Store.ts',
              from: './stores/*Store.ts',
              message: 'A store imports no other store: what spans stores belongs to the workspace.',
            },
          ],
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },

  // Plain JavaScript (scripts, jest setup, configs): no type information.
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node }, sourceType: 'module' },
  },
  // Served as they are (frontend/public): classic browser scripts.
  {
    files: ['frontend/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    files: ['**/*.cjs', 'backend/jest.config.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
