// What Fastify under Nest would save: `node bench/tools/framework-cost.mjs` (about a minute). Four
// servers, each a child process answering the same two routes with no database (the framework only):
//   nest-express  Nest on @nestjs/platform-express with the app's middleware (helmet, compression,
//                 cookie-parser, express.json 100kb), a global JWT guard and the app's ValidationPipe
//   express-lean  the same with one change that stays on Express: compression for GET and HEAD only
//   nest-fastify  the same module on @nestjs/platform-fastify (@fastify/helmet, @fastify/compress,
//                 @fastify/cookie, Fastify's own JSON parser with a 100kb limit)
//   bare          node `http` doing the same by hand
// The routes: `POST /api/chats/:id/messages` (the send route: a ~600-byte JSON answer, 201) and
// `GET /api/chats/:id/messages` (a ~10 kB history page, brotli-compressed). Each shape runs one request
// at a time and FRAMEWORK_COST_CONCURRENCY (8) at once over keep-alive connections, in interleaved
// blocks (A B C D, D C B A, ...). CPU per request is the server's own process.cpuUsage() (all its
// threads), asked over IPC before and after each block. Before measuring, every server must answer
// the same probes (bad token, bad id, unknown field, oversized body...) with the same status codes and
// security headers. Knobs: FRAMEWORK_COST_ROUNDS (10), FRAMEWORK_COST_REQUESTS per block (400),
// FRAMEWORK_COST_ROUTES=send|history, FRAMEWORK_COST_ROUTES_BEFORE (40), FRAMEWORK_COST_NODE_ARGS
// (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p" for every server), FRAMEWORK_COST_APP_CPU_MS (2.9).
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_DIR, ROOT } from '../lib/config.mjs';
import { signAccessToken } from '../lib/framework/route.mjs';
import { cleanup, onCleanup } from '../lib/lifecycle.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';
import { now, withTimeout } from '../lib/util.mjs';

const HERE = join(dirname(fileURLToPath(import.meta.url)), '..', 'lib', 'framework');
const SERVERS = [
  { name: 'nest-express', script: 'nest-server.mjs', args: ['express'] },
  { name: 'express-lean', script: 'nest-server.mjs', args: ['express-lean'] },
  { name: 'nest-fastify', script: 'nest-server.mjs', args: ['fastify'] },
  { name: 'bare', script: 'bare-server.mjs', args: [] },
];
const ROUNDS = Number(process.env.FRAMEWORK_COST_ROUNDS) || 10;
const CONCURRENCY = Number(process.env.FRAMEWORK_COST_CONCURRENCY) || 8;
const PER_BLOCK = Number(process.env.FRAMEWORK_COST_REQUESTS) || 400;
const WARMUP = 1500;
// The app's CPU per message in the round trip (one inbound HTTP request each), to put a saving in
// proportion: FRAMEWORK_COST_APP_CPU_MS when a newer bench run reads otherwise.
const APP_CPU_PER_MESSAGE_MS = Number(process.env.FRAMEWORK_COST_APP_CPU_MS) || 2.9;

const USER_ID = '11111111-1111-4111-8111-111111111111';
const CHAT_ID = '22222222-2222-4222-8222-222222222222';
const TOKEN = signAccessToken(USER_ID, '33333333-3333-4333-8333-333333333333');
const AUTH = { authorization: `Bearer ${TOKEN}` };
// About 250 characters of text: the answer (a MessageDto) comes to about 600 bytes.
const CONTENT = `${'Could you summarise the open invoices for the northern region and flag the overdue ones? '.repeat(3).trim()}`;
const SEND_BODY = JSON.stringify({ content: CONTENT, attachmentIds: [] });
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

const ROUTES = {
  send: {
    method: 'POST',
    path: `/api/chats/${CHAT_ID}/messages`,
    headers: { ...AUTH, 'content-type': 'application/json', 'content-length': Buffer.byteLength(SEND_BODY) },
    body: SEND_BODY,
    status: 201,
  },
  history: {
    method: 'GET',
    path: `/api/chats/${CHAT_ID}/messages`,
    headers: { ...AUTH, 'accept-encoding': BROWSER_ENCODINGS },
    status: 200,
  },
};
// FRAMEWORK_COST_ROUTES=send (or history) measures that route only.
const ONLY = process.env.FRAMEWORK_COST_ROUTES?.split(',');
const SHAPES = [
  { route: 'send', concurrency: 1 },
  { route: 'send', concurrency: CONCURRENCY },
  { route: 'history', concurrency: 1 },
  { route: 'history', concurrency: CONCURRENCY },
].filter((shape) => !ONLY || ONLY.includes(shape.route));
const shapeName = (shape) =>
  `${shape.route}, ${shape.concurrency === 1 ? 'one at a time' : `${shape.concurrency} at once`}`;

// ---------------------------------------------------------------------------------------------------
// The servers.

function start({ name, script, args }) {
  return withTimeout(
    new Promise((resolve, reject) => {
      const execArgv = (process.env.FRAMEWORK_COST_NODE_ARGS ?? '').split(' ').filter(Boolean);
      const child = fork(join(HERE, script), args, {
        execArgv,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      // Closing the IPC channel ends the child by process.exit (so --cpu-prof writes its profile).
      onCleanup(name, async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((done) => child.once('exit', done));
        if (child.connected) child.disconnect();
        await withTimeout(exited, 10_000, `${name} to exit`).catch(() => child.kill('SIGKILL'));
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening`)));
      child.once('message', ({ port }) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
        onCleanup(`${name} agent`, () => agent.destroy());
        resolve({ name, child, port, agent });
      });
    }),
    30_000,
    `${name} to listen`,
  );
}

/** The server process's own CPU time so far (ms): user + system, all its threads. */
function serverCpuMs(server) {
  return withTimeout(
    new Promise((resolve) => {
      server.child.once('message', ({ cpu }) => resolve((cpu.user + cpu.system) / 1000));
      server.child.send('cpu');
    }),
    5000,
    `${server.name}'s CPU time`,
  );
}

// ---------------------------------------------------------------------------------------------------
// The client.

function request(server, { method, path, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, method, path, headers, agent: server.agent },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`${server.name}: ${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** `count` requests of one route, `concurrency` in flight; the latency of each (ms). */
async function load(server, routeName, count, concurrency) {
  const route = ROUTES[routeName];
  const latencies = [];
  let next = 0;
  async function worker() {
    while (next < count) {
      next++;
      const started = now();
      const res = await request(server, route);
      latencies.push(now() - started);
      if (res.status !== route.status) {
        throw new Error(
          `${server.name}: ${routeName} answered ${res.status}: ${res.body.toString().slice(0, 200)}`,
        );
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return latencies;
}

// ---------------------------------------------------------------------------------------------------
// The same answers from all three, or no measurement.

const uuidPath = (id) => `/api/chats/${id}/messages`;
const jsonPost = (body, headers = AUTH, path = ROUTES.send.path) => ({
  method: 'POST',
  path,
  headers: { ...headers, 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const PROBES = [
  ['a message', jsonPost({ content: 'hello', attachmentIds: [] }), 201],
  ['no token', jsonPost({ content: 'hello' }, {}), 401],
  [
    'a forged token',
    jsonPost({ content: 'hello' }, { authorization: `Bearer ${TOKEN.slice(0, -2)}xx` }),
    401,
  ],
  ['a chat id that is no uuid', jsonPost({ content: 'hello' }, AUTH, uuidPath('nope')), 400],
  ['an unknown field', jsonPost({ content: 'hello', senderId: USER_ID }), 400],
  ['blank content', jsonPost({ content: '   ' }), 400],
  ['content over 20,000 characters', jsonPost({ content: 'a'.repeat(20_001) }), 400],
  ['attachmentIds not uuids', jsonPost({ content: 'hi', attachmentIds: ['x'] }), 400],
  ['11 attachments', jsonPost({ content: 'hi', attachmentIds: Array(11).fill(CHAT_ID) }), 400],
  ['malformed JSON', jsonPost('{"content": "a'), 400],
  ['a body over 100 kB', jsonPost({ content: 'a'.repeat(110_000) }), 413],
  ['the history page', ROUTES.history, 200],
];

async function checkSameAnswers(servers) {
  const rows = [];
  let headersOf = null;
  for (const [label, probe, expected] of PROBES) {
    const statuses = [];
    for (const server of servers) {
      const res = await request(server, probe);
      statuses.push(res.status);
      if (res.status !== expected) {
        throw new Error(
          `${server.name} answered ${label} with ${res.status}, not ${expected}: ${res.body.toString().slice(0, 200)}`,
        );
      }
      if (label === 'the history page' && res.headers['content-encoding'] !== 'br') {
        throw new Error(
          `${server.name} sent the history page as ${res.headers['content-encoding'] ?? 'identity'}, not br`,
        );
      }
      if (label === 'a message') {
        const answer = JSON.parse(res.body.toString());
        if (answer.chatId !== CHAT_ID || answer.senderId !== USER_ID || answer.content !== 'hello') {
          throw new Error(`${server.name} answered a message with ${res.body.toString()}`);
        }
        // helmet's headers, and the same values from each.
        const security = [
          'content-security-policy',
          'strict-transport-security',
          'x-frame-options',
          'x-content-type-options',
          'cross-origin-opener-policy',
          'referrer-policy',
        ]
          .map((h) => `${h}: ${res.headers[h]}`)
          .join('\n');
        if (headersOf && headersOf.security !== security) {
          throw new Error(
            `${server.name}'s security headers differ from ${headersOf.name}'s:\n${security}\n---\n${headersOf.security}`,
          );
        }
        headersOf ??= { name: server.name, security };
      }
    }
    rows.push([label, ...statuses]);
  }
  console.log(table(['probe', ...servers.map((s) => s.name)], rows));
}

// ---------------------------------------------------------------------------------------------------
// The measurement.

async function main() {
  const servers = [];
  for (const spec of SERVERS) servers.push(await start(spec));
  console.log(`servers: ${servers.map((s) => `${s.name} (pid ${s.child.pid})`).join(', ')}`);
  const before = process.env.FRAMEWORK_COST_ROUTES_BEFORE ?? '40';
  console.log(`the Nest apps register ${before} other routes first (FRAMEWORK_COST_ROUTES_BEFORE)\n`);
  await checkSameAnswers(servers);

  for (const server of servers) {
    for (const shape of SHAPES) await load(server, shape.route, WARMUP, shape.concurrency);
  }

  // results[shape][server] = { latencies, cpuMs, wallMs, perRound: [cpu ms per request] }
  const results = SHAPES.map(() =>
    Object.fromEntries(servers.map((s) => [s.name, { latencies: [], cpuMs: 0, wallMs: 0, perRound: [] }])),
  );
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const [i, shape] of SHAPES.entries()) {
      for (const server of order) {
        const cpuBefore = await serverCpuMs(server);
        const started = now();
        const latencies = await load(server, shape.route, PER_BLOCK, shape.concurrency);
        const wallMs = now() - started;
        const cpuMs = (await serverCpuMs(server)) - cpuBefore;
        const r = results[i][server.name];
        r.latencies.push(...latencies);
        r.cpuMs += cpuMs;
        r.wallMs += wallMs;
        r.perRound.push(cpuMs / PER_BLOCK);
      }
    }
    process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  const figures = report(servers, results);
  const file = join(BENCH_DIR, 'results', 'framework-cost.json');
  mkdirSync(dirname(file), { recursive: true });
  const config = { rounds: ROUNDS, perBlock: PER_BLOCK, concurrency: CONCURRENCY, warmup: WARMUP };
  const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version };
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), machine, config, figures }, null, 2)}\n`,
  );
  console.log(`\nwritten to ${relative(ROOT, file)}`);
}

function report(servers, results) {
  const names = servers.map((s) => s.name);
  const [express, bare] = ['nest-express', 'bare'];
  const alternatives = names.filter((name) => name !== express && name !== bare);
  console.log(
    `\n${ROUNDS} interleaved rounds of ${PER_BLOCK} requests per server and shape; ` +
      "CPU = the server process's own, ms per request",
  );
  const out = {};
  for (const [i, shape] of SHAPES.entries()) {
    const f = Object.fromEntries(
      names.map((name) => {
        const r = results[i][name];
        return [
          name,
          { cpu: r.cpuMs / r.latencies.length, ...summarize(r.latencies, r.wallMs), perRound: r.perRound },
        ];
      }),
    );
    out[shapeName(shape)] = f;
    console.log(`\n${shapeName(shape)}`);
    console.log(
      table(
        ['', 'CPU ms/req', 'p50 ms', 'p99 ms', 'req/s'],
        names.map((name) => [
          name,
          fmt(f[name].cpu),
          fmt(f[name].p50),
          fmt(f[name].p99),
          fmt(f[name].perSecond),
        ]),
      ),
    );
    const pair = (a, b) => [
      `${a} / ${b}`,
      ratio(f[a].cpu, f[b].cpu),
      ratio(f[a].p50, f[b].p50),
      ratio(f[a].p99, f[b].p99),
      ratio(f[a].perSecond, f[b].perSecond),
    ];
    console.log(
      table(
        ['ratio', 'CPU', 'p50', 'p99', 'req/s'],
        [
          ...names.filter((name) => name !== bare).map((name) => pair(name, bare)),
          ...alternatives.map((name) => pair(name, express)),
        ],
      ),
    );
    for (const name of alternatives) {
      const perRound = f[name].perRound.map((x, k) => x / f[express].perRound[k]);
      const ms = f[express].cpu - f[name].cpu;
      console.log(
        `${name} / ${express} CPU, round by round: ${fmt(Math.min(...perRound))} to ${fmt(Math.max(...perRound))}; ` +
          `saves ${fmt(ms)} ms per request = ${fmt((ms / APP_CPU_PER_MESSAGE_MS) * 100)}% of the app's ` +
          `${APP_CPU_PER_MESSAGE_MS} ms per message`,
      );
    }
    console.log(
      `the framework over bare: ${names
        .filter((name) => name !== bare)
        .map((name) => `${name} ${fmt(f[name].cpu - f[bare].cpu)} ms`)
        .join(', ')}`,
    );
  }
  return out;
}

// Not lifecycle's failAndExit: that writes the main bench's report, which this tool has no part in.
function fail(error) {
  console.error(
    `\nframework-cost failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  void cleanup().finally(() => process.exit(1));
}
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));
process.on('unhandledRejection', fail);
main().then(() => cleanup().then(() => process.exit(0)), fail);
