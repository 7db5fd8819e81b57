// The life of a bench run: cleanups, the report written to bench/results/latest.json, and what a failed
// run prints (the app's database connections, its health, its last log lines) before it exits.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { APP_POOL_SIZE, BENCH_DIR, CONFIG } from './config.mjs';
import { now, withTimeout } from './util.mjs';

// ---------------------------------------------------------------------------------------------------
// Cleanup: every resource registers how to release itself; run once, last registered first.

const cleanups = [];
let cleanupRun = null;

export function onCleanup(label, fn) {
  cleanups.push({ label, fn });
}

export function cleanup() {
  cleanupRun ??= (async () => {
    while (cleanups.length) {
      const { label, fn } = cleanups.pop();
      try {
        await fn();
      } catch (error) {
        console.error(`cleanup (${label}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleanupRun;
}

// ---------------------------------------------------------------------------------------------------
// The report.

/** What bench/results/latest.json gets: filled as phases finish, so a failed run still leaves its partial results. */
export const report = {
  date: new Date().toISOString(),
  status: 'running',
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
  },
  config: CONFIG,
};

export function writeReport() {
  mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
  writeFileSync(join(BENCH_DIR, 'results', 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------------
// Failure.

/** What a failure report can look at, set as the run gets there. */
export const diagnostics = {
  /** Set once the bench has its own database connection: what the app's connections were doing. */
  describeDatabase: null,
  /** Set once the app is up: after a failure, is it still answering at all? */
  appBase: null,
  /** The app's last output lines. */
  appLog: [],
};

let failing = false;

export async function failAndExit(error) {
  if (failing) return;
  failing = true;
  console.error(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  report.status = 'failed';
  report.error = error instanceof Error ? error.message : String(error);
  if (diagnostics.describeDatabase) {
    try {
      const activity = await withTimeout(diagnostics.describeDatabase(), 5000, 'pg_stat_activity');
      report.databaseAtFailure = activity;
      console.error(`\nthe app's database connections at the failure (pg_stat_activity):`);
      for (const r of activity) {
        const wait = `${r.wait_event_type ?? '-'}/${r.wait_event ?? '-'}`;
        console.error(`  ${r.connections} × ${r.state} (${wait}, up to ${r.longest_s} s), e.g. ${r.query}`);
      }
      if (activity.some((r) => r.state === 'idle in transaction' && r.connections >= APP_POOL_SIZE)) {
        console.error(
          `  → all ${APP_POOL_SIZE} pool connections sit idle inside transactions: each transaction waits for a\n` +
            '    second connection from the same pool, which none of them can release (pool-exhaustion deadlock).',
        );
      }
    } catch (e) {
      console.error(`(could not read pg_stat_activity: ${e instanceof Error ? e.message : String(e)})`);
    }
  }
  if (diagnostics.appBase) {
    const started = now();
    try {
      const res = await fetch(`${diagnostics.appBase}/api/health`, { signal: AbortSignal.timeout(3000) });
      report.healthAtFailure = `${res.status} in ${Math.round(now() - started)} ms`;
    } catch {
      report.healthAtFailure = 'no answer within 3000 ms';
    }
    console.error(`\nGET /api/health after the failure: ${report.healthAtFailure}`);
  }
  const appLog = diagnostics.appLog;
  if (appLog.length) console.error(`\nlast lines of the app's output:\n${appLog.slice(-40).join('\n')}`);
  try {
    writeReport();
    console.error('\npartial results written to bench/results/latest.json');
  } catch {
    /* nothing more to do */
  }
  await cleanup();
  process.exit(1);
}

/** Ctrl-C, SIGTERM and any stray error end the run through cleanup (and failAndExit for errors). */
export function installProcessHandlers() {
  process.once('SIGINT', () => {
    console.error('\ninterrupted: stopping the app and removing the temporary data directory');
    void cleanup().finally(() => process.exit(130));
  });
  process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));
  process.on('unhandledRejection', (error) => void failAndExit(error));
  process.on('uncaughtException', (error) => void failAndExit(error));
}

/** Fails the run if everything after the build takes longer than CONFIG.overallTimeoutMs. */
export function armOverallTimeout() {
  const overall = setTimeout(
    () =>
      void failAndExit(
        new Error(`overall timeout: the bench took longer than ${CONFIG.overallTimeoutMs} ms`),
      ),
    CONFIG.overallTimeoutMs,
  );
  onCleanup('overall timer', () => clearTimeout(overall));
}
