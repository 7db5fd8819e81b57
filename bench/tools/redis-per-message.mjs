// What one message costs Redis in the distributed shape: 2 api nodes and a worker of the build on a
// redis-server of this tool's own (so nothing else's commands are counted) and the machine's PostgreSQL.
// Counts, unlike CPU times, do not depend on what else the machine is doing: commands per message by
// name, bytes in and out, reads and writes (round trips), and the Redis CPU per message.
//
//   node bench/tools/redis-per-message.mjs            (BENCH_DATABASE_URL, default the machine's `test`)
//   REDIS_PER_MESSAGE_N=1000 node bench/tools/redis-per-message.mjs
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { signUp } from '../lib/clients.mjs';
import { APP_ENTRY, CONFIG } from '../lib/config.mjs';
import { distributedEnv, spawnApiNode } from '../lib/distributed-env.mjs';
import { cleanup, onCleanup } from '../lib/lifecycle.mjs';
import { table } from '../lib/output.mjs';
import { httpSystem, runConcurrent } from '../lib/round-trip.mjs';
import { buildIfMissing, spawnNode, startWebhook } from '../lib/servers.mjs';
import { delay, freePort } from '../lib/util.mjs';

const perChat = Math.ceil(Number(process.env.REDIS_PER_MESSAGE_N ?? 400) / CONFIG.concurrentChats);

async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', ''], {
    stdio: 'ignore',
  });
  onCleanup('redis-server', () => child.kill('SIGKILL'));
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { retryStrategy: () => 100 });
  client.on('error', () => undefined); // until the server listens
  await new Promise((resolve) => client.once('ready', resolve));
  onCleanup('redis client', () => client.disconnect());
  return { url, client };
}

/**
 * A PostgreSQL cluster of the tool's own (Debian's binaries, run as the postgres user when we are root)
 * with pg_stat_statements preloaded: the statements behind each message are counted too.
 */
async function startPostgres() {
  const bin = join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1), 'bin');
  const dir = mkdtempSync(join(os.tmpdir(), 'rpm-pg-'));
  chmodSync(dir, 0o777);
  const asPostgres = (command) =>
    process.getuid?.() === 0
      ? execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { stdio: 'ignore' })
      : execFileSync('sh', ['-c', command], { stdio: 'ignore' });
  const port = await freePort();
  asPostgres(`${bin}/initdb -D ${dir}/data -A trust -U postgres`);
  asPostgres(
    `${bin}/pg_ctl -D ${dir}/data -w -l ${dir}/log -o "-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ` +
      `-c shared_preload_libraries=pg_stat_statements -c max_connections=200" start`,
  );
  onCleanup('postgres', () => {
    asPostgres(`${bin}/pg_ctl -D ${dir}/data -m immediate stop`);
    rmSync(dir, { recursive: true, force: true });
  });
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** User + system CPU (ms) of each process, from /proc. */
function cpuOf(pids) {
  const out = {};
  for (const [name, pid] of Object.entries(pids)) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out[name] = (Number(f[11]) + Number(f[12])) * 10;
  }
  return out;
}

/** `INFO` as { section field: value }, commandstats as { command: calls }. */
async function stats(client) {
  const info = await client.info('all');
  const fields = {};
  const commands = {};
  for (const line of info.split('\r\n')) {
    const m = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (m) commands[m[1]] = Number(m[2]);
    else if (line.includes(':')) {
      const [k, v] = line.split(':');
      fields[k] = Number(v);
    }
  }
  return { fields, commands };
}

async function main() {
  buildIfMissing();
  const redis = await startRedis();
  const serverUrl = await startPostgres();
  const webhook = await startWebhook();
  const env = await distributedEnv({
    serverUrl,
    redisUrl: redis.url,
    label: 'rpm',
    agentHostPort: webhook.hostPort,
    rateLimitScale: '1000',
  });
  const apiA = await spawnApiNode(env, 'api A');
  const apiB = await spawnApiNode(env, 'api B');
  const worker = await spawnNode(APP_ENTRY, { ...env, PROCESS_ROLE: 'worker' }, 'worker');
  const pids = { 'api A': apiA.pid, 'api B': apiB.pid, worker: worker.pid };
  const d = await signUp(apiA.base, webhook.url);
  const chats = [];
  for (let i = 0; i < CONFIG.concurrentChats; i++) chats.push(await d.newChat(`chat ${i}`));
  const system = await httpSystem({
    name: 'distributed',
    base: apiB.base,
    postBases: [apiA.base, apiB.base],
    token: d.api.session.token,
    companyId: d.api.session.companyId,
    pid: [],
    postmasterPid: null,
    sequentialChat: chats[0],
    concurrentChats: chats,
  });
  await runConcurrent(system.send, chats, 2); // warm-up
  await delay(1000);
  // What the processes cost doing nothing (timers, schedules, pollers): counted in any CPU per message.
  const idleMs = 5000;
  const idleBefore = cpuOf(pids);
  await delay(idleMs);
  const idleAfter = cpuOf(pids);
  const cpuBefore = cpuOf(pids);
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  onCleanup('stats connection', () => db.end());
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await db.query('SELECT pg_stat_statements_reset()');
  const before = await stats(redis.client);
  const run = await runConcurrent(system.send, chats, perChat).catch(async (error) => {
    const { rows } = await db.query(
      `SELECT reply_status, count(*)::int AS n, max(now() - created_at) AS oldest FROM messages
       WHERE sender_type = 'user' GROUP BY 1`,
    );
    const q = env.BULLMQ_PREFIX + ':switchboard';
    const counts = {};
    for (const key of ['wait', 'active', 'delayed', 'prioritized', 'marker'])
      counts[key] = await redis.client
        .type(`${q}:${key}`)
        .then((t) =>
          t === 'list'
            ? redis.client.llen(`${q}:${key}`)
            : t === 'zset'
              ? redis.client.zcard(`${q}:${key}`)
              : t,
        );
    console.error('messages by reply status', rows, 'queue', counts);
    throw error;
  });
  await delay(500);
  const after = await stats(redis.client);
  const cpuAfter = cpuOf(pids);
  const { rows: statements } = await db.query(
    `SELECT s.query, s.calls::int AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = current_database() AND s.query NOT ILIKE '%pg_stat_statements%' ORDER BY s.calls DESC`,
  );
  if (process.env.REDIS_PER_MESSAGE_MONITOR) {
    // One more message with MONITOR on: each command the app sent, with its size.
    const monitor = await redis.client.duplicate().monitor();
    const lines = [];
    monitor.on('monitor', (_time, args, source) => {
      if (source.startsWith('lua')) return;
      const text = args.map(String);
      lines.push(`${String(text.join(' ').length).padStart(6)}  ${text.join(' ').slice(0, 160)}`);
    });
    await system.send(chats[0], 0);
    await delay(300);
    monitor.disconnect();
    console.log(`\nCommands sent for one message (bytes, start of the command):\n${lines.join('\n')}`);
  }
  const n = run.latencies.length;
  const per = (x) => (x / n).toFixed(2);
  const rows = Object.keys(after.commands)
    .map((name) => [name, (after.commands[name] ?? 0) - (before.commands[name] ?? 0)])
    .filter(([name, calls]) => calls > 0 && name !== 'info')
    .sort((a, b) => b[1] - a[1])
    .map(([name, calls]) => [name, per(calls)]);
  const total = rows.reduce((sum, [, v]) => sum + Number(v), 0);
  const delta = (k) => after.fields[k] - before.fields[k];
  console.log(
    `\nRedis per message (${n} messages, ${CONFIG.concurrentChats} chats at once, 2 api + 1 worker)`,
  );
  console.log(table(['command', 'calls per message'], [...rows, ['all', total.toFixed(2)]]));
  const sql = statements.map((r) => [r.query.replace(/\s+/g, ' ').slice(0, 110), per(r.calls)]);
  const sqlTotal = statements.reduce((sum, r) => sum + r.calls, 0);
  console.log(table(['statement', 'per message'], [...sql, ['all', per(sqlTotal)]]));
  console.log(
    table(
      ['figure', 'per message'],
      [
        ['bytes into Redis', per(delta('total_net_input_bytes'))],
        ['bytes out of Redis', per(delta('total_net_output_bytes'))],
        // Each read is one request arriving (a command, or a pipeline of them): the round trips.
        ['reads by Redis (round trips)', per(delta('total_reads_processed'))],
        ['writes by Redis', per(delta('total_writes_processed'))],
        ...Object.keys(pids).map((name) => [
          `${name} CPU (ms; idle: ${((idleAfter[name] - idleBefore[name]) / (idleMs / 1000)).toFixed(1)} ms/s)`,
          per(cpuAfter[name] - cpuBefore[name]),
        ]),
        ['Redis CPU (ms)', per((delta('used_cpu_sys') + delta('used_cpu_user')) * 1000)],
      ],
    ),
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => cleanup().then(() => process.exit()));
