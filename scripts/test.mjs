#!/usr/bin/env node
// `npm test`: every check, in order, stopping at the first failure.
//   lint → typecheck → backend (jest) → frontend (vitest) → e2e (build, then Playwright in Chromium)
// Ends with a summary table and one line CI reads: `tests: N passed, N failed`.
//
// Options: --skip=lint,typecheck,backend,frontend,e2e  --only=backend,frontend  --keep-going
// (extra steps: `node scripts/test.mjs --only=e2e` rebuilds and runs only the browser tests).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const args = process.argv.slice(2);
const listArg = (name) =>
  args
    .filter((a) => a.startsWith(`--${name}=`))
    .flatMap((a) => a.slice(name.length + 3).split(','))
    .filter(Boolean);
const only = listArg('only');
const skip = listArg('skip');
const keepGoing = args.includes('--keep-going');
const wanted = (name) => (only.length === 0 || only.includes(name)) && !skip.includes(name);

/** @typedef {{passed: number, failed: number, skipped: number}} Counts */

/** Runs a command with inherited output; resolves to its exit code. */
function run(command, commandArgs, { env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env });
    child.on('error', (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Jest and Vitest share the --json report shape. */
function countsFromJestLike(file) {
  const report = readJson(file);
  if (!report) return null;
  return {
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

function countsFromPlaywright(file) {
  const report = readJson(file);
  if (!report?.stats) return null;
  // Flaky tests passed on retry: count them as passed (the list reporter shows them).
  return {
    passed: (report.stats.expected ?? 0) + (report.stats.flaky ?? 0),
    failed: report.stats.unexpected ?? 0,
    skipped: report.stats.skipped ?? 0,
  };
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Debian's chromium (CONTRIBUTING.md#chromium): install it when missing and we can, else say how. */
async function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return 0;
  if (!isRoot()) {
    console.error(
      `\nChromium is missing at ${CHROMIUM}. Install it with:\n\n  sudo apt-get install -y chromium\n`,
    );
    return 1;
  }
  console.log(`Chromium is missing at ${CHROMIUM}: installing it with apt-get (about a minute)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await run('apt-get', ['update'], { env });
  if (update !== 0) return update;
  const install = await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env });
  if (install !== 0) return install;
  return fs.existsSync(CHROMIUM) ? 0 : 1;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const steps = [
  { name: 'lint', run: () => run(npm, ['run', 'lint']) },
  { name: 'typecheck', run: () => run(npm, ['run', 'typecheck']) },
  {
    name: 'backend',
    label: 'backend (jest)',
    run: async (step) => {
      const report = path.join(reportDir, 'jest.json');
      const code = await run(npm, ['test', '-w', 'backend', '--', '--json', `--outputFile=${report}`]);
      step.counts = countsFromJestLike(report);
      return code;
    },
  },
  {
    name: 'frontend',
    label: 'frontend (vitest)',
    run: async (step) => {
      const report = path.join(reportDir, 'vitest.json');
      const code = await run(npm, [
        'test',
        '-w',
        'frontend',
        '--',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ]);
      step.counts = countsFromJestLike(report);
      return code;
    },
  },
  {
    name: 'e2e',
    label: 'e2e (build + playwright)',
    run: async (step) => {
      const chromium = await ensureChromium();
      if (chromium !== 0) return chromium;
      const build = await run(npm, ['run', 'build']);
      if (build !== 0) {
        step.note = 'build failed';
        return build;
      }
      const report = path.join(reportDir, 'playwright.json');
      // The app under test must use its embedded PostgreSQL and in-process queue, like `npm start`;
      // e2e/global-setup.ts also strips these, this keeps them away from the runner altogether.
      const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: report };
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      const code = await run(
        'npx',
        ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
        {
          env,
        },
      );
      step.counts = countsFromPlaywright(report);
      return code;
    },
  },
];

function formatDuration(ms) {
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const results = [];
let failedStep = null;
const started = Date.now();
for (const step of steps) {
  const label = step.label ?? step.name;
  if (!wanted(step.name)) {
    results.push({ label, status: 'skipped (option)' });
    continue;
  }
  if (failedStep && !keepGoing) {
    results.push({ label, status: `skipped (${failedStep} failed)` });
    continue;
  }
  console.log(`\n━━━ ${label} ━━━`);
  const stepStarted = Date.now();
  const code = await step.run(step);
  const ms = Date.now() - stepStarted;
  const ok = code === 0;
  if (!ok && !failedStep) failedStep = step.name;
  results.push({
    label,
    status: ok ? 'ok' : `FAILED (exit ${code}${step.note ? `, ${step.note}` : ''})`,
    ms,
    counts: step.counts,
    ok,
  });
}

let passed = 0;
let failed = 0;
let skippedTests = 0;
console.log('\n━━━ summary ━━━');
for (const r of results) {
  const counts = r.counts
    ? `${r.counts.passed} passed, ${r.counts.failed} failed${r.counts.skipped ? `, ${r.counts.skipped} skipped` : ''}`
    : '';
  console.log(
    `  ${r.label.padEnd(26)} ${r.status.padEnd(30)} ${r.ms === undefined ? '' : formatDuration(r.ms).padStart(10)}  ${counts}`,
  );
  if (r.counts) {
    passed += r.counts.passed;
    failed += r.counts.failed;
    skippedTests += r.counts.skipped;
  }
  // A step that failed without a failing test (lint, typecheck, build, a crashed runner) still counts once,
  // so the last line can never read "0 failed" for a red run.
  if (r.ok === false && !(r.counts && r.counts.failed > 0)) failed += 1;
}
console.log(
  `  total ${formatDuration(Date.now() - started)}${skippedTests ? `, ${skippedTests} tests skipped` : ''}`,
);
fs.rmSync(reportDir, { recursive: true, force: true });
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exitCode = failedStep ? 1 : 0;
