// What an api node, a worker and the embedded process cost doing nothing (timers, pollers, schedules):
// CPU ms per second of each, idle, over IDLE_CPU_SECONDS (default 20). At a few messages a second this is a
// visible part of the CPU per message.
//   node bench/tools/idle-cpu.mjs        (BENCH_DATABASE_URL, BENCH_REDIS_URL: the machine's by default)
import { readFileSync } from 'node:fs';
import { APP_ENTRY } from '../lib/config.mjs';
import { distributedEnv, spawnApiNode } from '../lib/distributed-env.mjs';
import { cleanup } from '../lib/lifecycle.mjs';
import { table } from '../lib/output.mjs';
import { buildIfMissing, spawnNode, startApp, startWebhook } from '../lib/servers.mjs';
import { delay } from '../lib/util.mjs';

const seconds = Number(process.env.IDLE_CPU_SECONDS ?? 20);

function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function main() {
  buildIfMissing();
  const webhook = await startWebhook();
  const env = await distributedEnv({
    serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    label: 'idle',
    agentHostPort: webhook.hostPort,
    rateLimitScale: '1',
  });
  const embedded = await startApp(webhook.hostPort);
  const api = await spawnApiNode(env, 'api');
  const worker = await spawnNode(APP_ENTRY, { ...env, PROCESS_ROLE: 'worker' }, 'worker');
  const pids = { 'one process (embedded)': embedded.pid, 'api node': api.pid, worker: worker.pid };
  // A worker is spawned without waiting for it to be ready: let its start-up (module loading, the
  // queue's scripts) finish before counting.
  await delay(15_000);
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
  await delay(seconds * 1000);
  const rows = Object.entries(pids).map(([k, pid]) => [k, ((cpuMs(pid) - before[k]) / seconds).toFixed(1)]);
  console.log(table(['process', 'idle CPU ms/s'], rows));
}

main().then(cleanup, async (error) => {
  console.error(error);
  await cleanup();
  process.exitCode = 1;
});
