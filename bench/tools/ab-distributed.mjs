// A/B of two builds in the distributed shape, in one run: `node bench/tools/ab-distributed.mjs
// backend/dist-a backend/dist-b` (BENCH_DATABASE_URL and BENCH_REDIS_URL as for the distributed phase).
// Each build runs as 2 api nodes + 1 worker in a database and BullMQ prefix of its own on the machine's
// PostgreSQL and Redis; both get the round-trip shapes in interleaved blocks (A B, B A, ...) and the
// table shows B / A: what a change to the distributed path costs or saves, with the same background
// load on both. AB_ROUNDS=2 measures the whole thing twice (each round's figures are printed).
// `one:<dist>` for a side runs that build as one process instead (PROCESS_ROLE=all, BullMQ and the Redis
// adapter in the same process, on the same PostgreSQL and Redis): what splitting the roles costs, apart
// from what going through Redis costs; `embedded:<dist>` runs it as `npm start` does (its own embedded
// PostgreSQL, no Redis, the in-process queue), the distributed phase's reference; `two:<dist>` runs two
// nodes that are api and worker both (PROCESS_ROLE=all), the POSTs going to each in turn.
import { resolve } from 'node:path';
import { signUp } from '../lib/clients.mjs';
import { ROOT, CONFIG } from '../lib/config.mjs';
import { distributedEnv, spawnApiNode } from '../lib/distributed-env.mjs';
import { armOverallTimeout, cleanup, failAndExit, installProcessHandlers } from '../lib/lifecycle.mjs';
import { printAbRound } from '../lib/ab.mjs';
import { httpSystem, measureRoundTrips } from '../lib/round-trip.mjs';
import { spawnNode, startApp, startWebhook } from '../lib/servers.mjs';
import { delay } from '../lib/util.mjs';
import { concurrent } from '../phases/concurrent.mjs';
import { sequential } from '../phases/sequential.mjs';

const [specA, specB] = process.argv.slice(2);
const serverUrl = process.env.BENCH_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL;
if (!specA || !specB || !serverUrl || !redisUrl) {
  console.error(
    'usage: BENCH_DATABASE_URL=... BENCH_REDIS_URL=... node bench/tools/ab-distributed.mjs [one:]<dist A> [one:]<dist B>',
  );
  process.exit(2);
}
const rounds = Number(process.env.AB_ROUNDS) || 1;
installProcessHandlers();

async function side(name, spec, webhook) {
  const [, shape = 'distributed', dist] = /^(?:(one|two|embedded):)?(.+)$/.exec(spec) ?? [];
  const entry = resolve(ROOT, dist, 'main.js');
  const one = shape === 'one';
  if (shape === 'embedded') {
    // As `npm start` runs it: its own embedded PostgreSQL, no Redis.
    const app = await startApp(webhook.hostPort, entry);
    const d = await signUp(app.base, webhook.url);
    return httpSystem({
      name,
      base: app.base,
      token: d.api.session.token,
      companyId: d.api.session.companyId,
      pid: app.pid,
      postmasterPid: null,
      ...(await chats(d)),
    });
  }
  const env = await distributedEnv({
    serverUrl,
    redisUrl,
    label: `ab${name.toLowerCase()}`,
    agentHostPort: webhook.hostPort,
    rateLimitScale: '1000',
  });
  let apiA, apiB, worker;
  if (one) {
    apiA = apiB = await spawnApiNode(env, `${name} one process`, entry, 'all');
  } else if (shape === 'two') {
    apiA = await spawnApiNode(env, `${name} node A`, entry, 'all');
    apiB = await spawnApiNode(env, `${name} node B`, entry, 'all');
  } else {
    apiA = await spawnApiNode(env, `${name} api A`, entry); // migrates first
    apiB = await spawnApiNode(env, `${name} api B`, entry);
    worker = await spawnNode(entry, { ...env, PROCESS_ROLE: 'worker' }, `${name} worker`);
  }
  const d = await signUp(apiA.base, webhook.url);
  return httpSystem({
    name,
    base: apiB.base,
    postBases: one ? [apiA.base] : [apiA.base, apiB.base],
    token: d.api.session.token,
    companyId: d.api.session.companyId,
    pid: one ? [apiA.pid] : worker ? [apiA.pid, apiB.pid, worker.pid] : [apiA.pid, apiB.pid],
    postmasterPid: null,
    ...(await chats(d)),
  });
}

async function chats(d) {
  const sequentialChat = await d.newChat('sequential');
  const concurrentChats = [];
  for (let i = 0; i < CONFIG.concurrentChats; i++) concurrentChats.push(await d.newChat(`c ${i}`));
  return { sequentialChat, concurrentChats };
}

async function main() {
  armOverallTimeout();
  const webhook = await startWebhook();
  const a = await side('A', specA, webhook);
  const b = await side('B', specB, webhook);
  await delay(CONFIG.distributed.workerStartMs);
  const shapes = [sequential, concurrent];
  for (let round = 1; round <= rounds; round++) {
    const result = {};
    await measureRoundTrips([a, b], shapes, result);
    printAbRound(`Round ${round} of ${rounds}: A = ${specA}, B = ${specB}`, result, shapes, [
      ['(app processes)', 'server'],
    ]);
  }
}

main().then(
  () => cleanup().then(() => process.exit(0)),
  (error) => failAndExit(error),
);
