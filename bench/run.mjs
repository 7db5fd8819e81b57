// `npm run bench`: Switchboard's message round trip and history loading, measured against a bare
// Socket.IO + PostgreSQL baseline in the same run on the same machine. See bench/README.md.
//
// The run: build the backend if missing, start an instant webhook and the app, sign up through the API,
// then measure phase by phase (bench/phases/) and print each phase's tables once all have run. The
// pieces they share (servers, clients, stats, CPU accounting, cleanup) are in bench/lib/.
import os from 'node:os';
import { openDatabase, signUp } from './lib/clients.mjs';
import {
  armOverallTimeout,
  cleanup,
  diagnostics,
  failAndExit,
  installProcessHandlers,
  report,
  writeReport,
} from './lib/lifecycle.mjs';
import { buildIfMissing, startApp, startWebhook } from './lib/servers.mjs';
import { now } from './lib/util.mjs';
import { callsInFlight } from './phases/calls-in-flight.mjs';
import { concurrent } from './phases/concurrent.mjs';
import { distributed } from './phases/distributed.mjs';
import { fanOut } from './phases/fan-out.mjs';
import { firstLoad } from './phases/first-load.mjs';
import { history } from './phases/history.mjs';
import { insightsPhase } from './phases/insights.mjs';
import { hostileBodies } from './phases/hostile-bodies.mjs';
import { listsPhase } from './phases/lists.mjs';
import { memory } from './phases/memory.mjs';
import { regenerate } from './phases/regenerate.mjs';
import { roundTrip } from './phases/round-trip.mjs';
import { searchPhase } from './phases/search.mjs';
import { sequential } from './phases/sequential.mjs';
import { statements } from './phases/statements.mjs';
import { steady } from './phases/steady.mjs';
import { streamParsing } from './phases/stream-parsing.mjs';

/**
 * The phases, in the order they run and print. A phase is `{ key, title, measure(ctx, result),
 * print(result) }`: its title is printed, `measure` fills `result` (which is `report[key]`, so a failed
 * run still writes what it got), and once every phase has measured, `print` shows its tables.
 */
const ALL_PHASES = [
  roundTrip([sequential, concurrent]),
  regenerate,
  statements,
  fanOut,
  memory,
  steady,
  listsPhase,
  distributed,
  history,
  hostileBodies,
  firstLoad,
  searchPhase,
  streamParsing,
  callsInFlight,
  // Last: it leaves a million messages behind.
  insightsPhase,
];
// BENCH_PHASES=history,hostileBodies runs only those (BENCH_PHASES=streamParsing: no app, seconds).
const only = (process.env.BENCH_PHASES ?? '').split(',').filter(Boolean);
const PHASES = only.length ? ALL_PHASES.filter((p) => only.includes(p.key)) : ALL_PHASES;

installProcessHandlers();

async function main() {
  // Phases that need no embedded app (streamParsing, callsInFlight) run alone without starting it; only
  // those that start processes of their own need the build.
  if (PHASES.length && PHASES.every((p) => p.standalone)) {
    if (PHASES.some((p) => p.needsBuild)) buildIfMissing();
    for (const phase of PHASES) {
      console.log(phase.title);
      await phase.measure({}, (report[phase.key] = {}));
    }
    for (const phase of PHASES) phase.print(report[phase.key]);
    Object.assign(report, { status: 'ok' });
    writeReport();
    console.log('\nwritten to bench/results/latest.json');
    return;
  }
  buildIfMissing();
  armOverallTimeout();

  console.log(
    `Switchboard bench — ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}`,
  );
  const webhook = await startWebhook();
  const startedAt = now();
  const app = await startApp(webhook.hostPort);
  diagnostics.appBase = app.base;
  console.log(`  app healthy at ${app.base} after ${Math.round(now() - startedAt)} ms (embedded PostgreSQL)`);

  // What every phase works with: the app, a user with an agent on the instant webhook, a database connection.
  const ctx = { app, webhook, ...(await signUp(app.base, webhook.url)) };
  ctx.db = await openDatabase(app.databaseUrl);
  // BENCH_INSIGHTS_ROLLUPS=off: the Insights rollup triggers off, to measure what they cost a message.
  if (process.env.BENCH_INSIGHTS_ROLLUPS === 'off') {
    for (const trigger of ['insights_message_stored', 'insights_reply_failed', 'insights_rating'])
      await ctx.db.query(`ALTER TABLE messages DISABLE TRIGGER ${trigger}`);
    console.log('  Insights rollup triggers off (BENCH_INSIGHTS_ROLLUPS=off)');
  }
  // BENCH_MESSAGE_QUOTAS=on: the bench company has message quotas (too high to be reached), to measure
  // what counting them costs a message (set before its first message: the app reads them then).
  if (process.env.BENCH_MESSAGE_QUOTAS === 'on') {
    await ctx.db.query(
      `INSERT INTO company_quotas (company_id, messages_per_user_per_day, messages_per_company_per_month)
       VALUES ($1, 1000000000, 1000000000)`,
      [ctx.api.session.companyId],
    );
    console.log('  Message quotas set (BENCH_MESSAGE_QUOTAS=on)');
  }

  for (const phase of PHASES) {
    console.log(phase.title);
    await phase.measure(ctx, (report[phase.key] = {}));
  }
  for (const phase of PHASES) phase.print(report[phase.key]);

  Object.assign(report, { status: 'ok', webhookCalls: webhook.calls() });
  writeReport();
  console.log('\nwritten to bench/results/latest.json');
}

main().then(
  () => cleanup().then(() => process.exit(0)),
  (error) => failAndExit(error),
);
