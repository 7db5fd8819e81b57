// A/B of two builds of the app in one run: `node bench/tools/ab.mjs backend/dist-a backend/dist-b`. Each
// build runs as `npm start` runs it (its own embedded PostgreSQL), both get the round-trip shapes in
// interleaved blocks (A B, B A, ...), and the tables show B / A: what a change costs or saves, measured
// with the same background load on both. For changes too small to see across two separate bench runs
// on a shared machine. `AB_NODE_ARGS_A` / `AB_NODE_ARGS_B`: node flags for one side only (e.g. the same build
// twice with `AB_NODE_ARGS_B=--max-semi-space-size=32`, to measure a runtime flag).
import { resolve } from 'node:path';
import { openDatabase, signUp } from '../lib/clients.mjs';
import { ROOT, CONFIG } from '../lib/config.mjs';
import { armOverallTimeout, cleanup, failAndExit, installProcessHandlers } from '../lib/lifecycle.mjs';
import { printAbRound } from '../lib/ab.mjs';
import { measureRoundTrips, switchboardSystem } from '../lib/round-trip.mjs';
import { startApp, startWebhook } from '../lib/servers.mjs';
import { concurrent } from '../phases/concurrent.mjs';
import { sequential } from '../phases/sequential.mjs';

const [distA, distB] = process.argv.slice(2);
if (!distA || !distB) {
  console.error('usage: node bench/tools/ab.mjs <dist A> <dist B>');
  process.exit(2);
}
installProcessHandlers();

async function side(name, dist, webhook) {
  const nodeArgs = (process.env[`AB_NODE_ARGS_${name}`] ?? '').split(' ').filter(Boolean);
  const app = await startApp(webhook.hostPort, resolve(ROOT, dist, 'main.js'), {}, { nodeArgs });
  const ctx = { app, webhook, ...(await signUp(app.base, webhook.url)) };
  ctx.db = await openDatabase(app.databaseUrl);
  const sequentialChat = await ctx.newChat('sequential');
  const concurrentChats = [];
  for (let i = 0; i < CONFIG.concurrentChats; i++) concurrentChats.push(await ctx.newChat(`c ${i}`));
  return { ...(await switchboardSystem(ctx, { sequentialChat, concurrentChats })), name };
}

async function main() {
  armOverallTimeout();
  const webhook = await startWebhook();
  const a = await side('A', distA, webhook);
  const b = await side('B', distB, webhook);
  const shapes = [sequential, concurrent];
  const result = {};
  await measureRoundTrips([a, b], shapes, result);
  printAbRound(`A = ${distA}, B = ${distB}`, result, shapes, [
    ['server', 'server'],
    ['postgres', 'postgres'],
  ]);
}

main().then(
  () => cleanup().then(() => process.exit(0)),
  (error) => failAndExit(error),
);
