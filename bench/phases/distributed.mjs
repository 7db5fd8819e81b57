// Phase: distributed mode, on the machine's PostgreSQL and Redis (BENCH_DATABASE_URL, a database the
// bench may create databases from, and BENCH_REDIS_URL; skipped without them). Two api nodes
// (PROCESS_ROLE=api) and one, then two workers (PROCESS_ROLE=worker) of the same build, in a database
// of their own and a BullMQ prefix of their own. Each message is POSTed to the api nodes in turn; the
// socket is on the second node, so replies come through Redis (the worker's emitter, the adapter). The
// concurrent shape, in blocks interleaved with the embedded single process of the main run: msgs/s of
// 2 api + 1 worker over one process (and one message at a time, with one worker), then again once a
// second worker has joined.
import { signUp } from '../lib/clients.mjs';
import { distributedEnv, spawnApiNode } from '../lib/distributed-env.mjs';
import { APP_ENTRY, CONFIG } from '../lib/config.mjs';
import { fmt, table } from '../lib/output.mjs';
import { httpSystem, measureRoundTrips, roundTripSystems } from '../lib/round-trip.mjs';
import { spawnNode } from '../lib/servers.mjs';
import { ratio } from '../lib/stats.mjs';
import { delay } from '../lib/util.mjs';
import { concurrent } from './concurrent.mjs';
import { sequential } from './sequential.mjs';

const { workerStartMs } = CONFIG.distributed;

export const distributed = {
  key: 'distributed',
  title: 'Distributed: 2 api nodes + 1, then 2 workers (machine PostgreSQL and Redis) vs one process',

  async measure(ctx, result) {
    const serverUrl = process.env.BENCH_DATABASE_URL;
    const redisUrl = process.env.BENCH_REDIS_URL;
    if (!serverUrl || !redisUrl) {
      result.skipped = 'set BENCH_DATABASE_URL and BENCH_REDIS_URL to run it';
      return;
    }
    const env = await distributedEnv({
      serverUrl,
      redisUrl,
      label: 'dist',
      agentHostPort: ctx.webhook.hostPort,
      rateLimitScale: '1000',
    });
    const apiA = await spawnApiNode(env, 'api A'); // migrates first
    const apiB = await spawnApiNode(env, 'api B');
    const pids = [
      apiA.pid,
      apiB.pid,
      (await spawnNode(APP_ENTRY, { ...env, PROCESS_ROLE: 'worker' }, 'worker 1')).pid,
    ];
    const d = await signUp(apiA.base, ctx.webhook.url);
    const sequentialChat = await d.newChat('sequential');
    const concurrentChats = [];
    for (let i = 0; i < CONFIG.concurrentChats; i++) concurrentChats.push(await d.newChat(`concurrent ${i}`));
    const dist = await httpSystem({
      name: 'distributed',
      base: apiB.base,
      postBases: [apiA.base, apiB.base],
      token: d.api.session.token,
      companyId: d.api.session.companyId,
      pid: pids,
      postmasterPid: null,
      sequentialChat,
      concurrentChats,
    });
    const { switchboard: single } = await roundTripSystems(ctx);
    await delay(workerStartMs);
    result.oneWorker = await measureRoundTrips([single, dist], [sequential, concurrent], {});
    pids.push((await spawnNode(APP_ENTRY, { ...env, PROCESS_ROLE: 'worker' }, 'worker 2')).pid);
    await delay(workerStartMs);
    result.twoWorkers = await measureRoundTrips([single, dist], [concurrent], {});
  },

  print(result) {
    console.log('\nDistributed: ratio = distributed / one process (goal: 2 api + 1 worker msgs/s ≥ 1.6x)');
    if (result.skipped) return console.log(`  skipped: ${result.skipped}`);
    const rows = [];
    for (const [label, r] of [
      ['2 api + 1 worker', result.oneWorker],
      ['2 api + 2 workers', result.twoWorkers],
    ]) {
      if (!r) continue;
      const one = r.switchboard.concurrent;
      const dist = r.distributed.concurrent;
      rows.push([
        `${label}: msgs/s`,
        fmt(one.perSecond),
        fmt(dist.perSecond),
        `${fmt(ratio(dist.perSecond, one.perSecond))}x`,
      ]);
      rows.push([`${label}: p50 (ms)`, fmt(one.p50), fmt(dist.p50), `${fmt(ratio(dist.p50, one.p50))}x`]);
      rows.push([`${label}: p99 (ms)`, fmt(one.p99), fmt(dist.p99), `${fmt(ratio(dist.p99, one.p99))}x`]);
      const cpuOne = one.cpuMsPerMessage?.server;
      const cpuDist = dist.cpuMsPerMessage?.server;
      rows.push([
        `${label}: CPU ms/msg (app processes; goal ≤ 1.3x)`,
        fmt(cpuOne),
        fmt(cpuDist),
        cpuOne && cpuDist ? `${fmt(ratio(cpuDist, cpuOne))}x` : '',
      ]);
      // One message at a time: the hops' own cost, without the contention of 20 chats at once.
      const seqOne = r.switchboard.sequential?.cpuMsPerMessage?.server;
      const seqDist = r.distributed.sequential?.cpuMsPerMessage?.server;
      if (seqOne && seqDist)
        rows.push([
          `${label}: CPU ms/msg, sequential`,
          fmt(seqOne),
          fmt(seqDist),
          `${fmt(ratio(seqDist, seqOne))}x`,
        ]);
    }
    console.log(table(['metric', 'one process', 'distributed', 'ratio'], rows));
    console.log(
      "  (one process: the embedded default of this run; distributed: the machine's PostgreSQL, not counted in CPU)",
    );
  },
};
