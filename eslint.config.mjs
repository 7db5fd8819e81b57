// ESLint flat config for the whole monorepo (`npm run lint` runs `eslint . --max-warnings 0`).
// TypeScript gets type-aware linting through the project service: each file is checked with the
// tsconfig.json that includes it (backend/, frontend/, e2e/). Deliberately `recommended` plus a few
// type-aware rules that catch real bugs (floating promises above all), not the full strict set.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
