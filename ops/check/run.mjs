#!/usr/bin/env node
// `npm run ops-check`: does a rolling restart lose anything? (Not part of `npm test`.)
//
// Starts 2 api nodes (PROCESS_ROLE=api) and 1 worker (PROCESS_ROLE=worker) of the current build
// (backend/dist: `npm run build` first) on a fresh database of its own on the PostgreSQL server in
// OPS_DATABASE_URL (dropped at the end) and on OPS_REDIS_URL (else a redis-server of its own on a free
// loopback port), with a BULLMQ_PREFIX of its own. Signs up through the public API, creates an agent on a
// local instant webhook and OPS_CHATS chats, then sends OPS_RATE messages a second, each to a chat with no
// reply pending (the api answers 409 to a second one), to whichever api node last answered
// GET /api/health/ready with 200 (round robin, as a balancer does). Meanwhile it restarts api A, then api B,
// then the worker (SIGTERM, wait for the exit, start again, wait until ready), keeps sending for a while,
// and waits for the replies. A Socket.IO client, as a browser tab, stays connected through whichever node
// is ready (reconnecting elsewhere when its node goes) and resyncs by cursor after a reconnect.
//
// Then it checks the database (each user message that got a 201 has exactly one agent reply) and what the
// client received, prints the figures and exits 1 when the goal is missed: every 201 has exactly one reply,
// none missing, none duplicated, every reply reached the client, at most 1% of sends failed.
//
// Environment: OPS_DATABASE_URL (required: a server where this user may CREATE DATABASE, e.g.
// postgres://postgres@127.0.0.1:5432/postgres), OPS_REDIS_URL (optional), OPS_RATE (5), OPS_CHATS (60),
// OPS_WARMUP_S (8), OPS_PAUSE_S (5), OPS_TAIL_S (15), OPS_ROUNDS (1: restart rounds), OPS_AGENT_DELAY_MS (0:
// how long the agent takes to answer), OPS_KEEP_LOGS=1 (keep the processes' logs; their directory is printed).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io } from 'socket.io-client';
// The bench's own helpers: cleanups (last registered first, once), a free loopback port, a database of
// the run's own on the server (dropped at cleanup).
import { ownDatabase } from '../../bench/lib/distributed-env.mjs';
import { cleanup, onCleanup } from '../../bench/lib/lifecycle.mjs';
import { delay, freePort } from '../../bench/lib/util.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAIN = join(ROOT, 'backend', 'dist', 'main.js');
const WORKER = join(ROOT, 'backend', 'dist', 'worker.js');
const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));

const num = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) fail(`${name} must be a positive number`, 2);
  return value;
};
const RATE = num('OPS_RATE', 5);
const CHATS = num('OPS_CHATS', 60);
const WARMUP_MS = num('OPS_WARMUP_S', 8) * 1000;
const PAUSE_MS = num('OPS_PAUSE_S', 5) * 1000;
const TAIL_MS = num('OPS_TAIL_S', 15) * 1000;
const ROUNDS = num('OPS_ROUNDS', 1);
// 0: the agent answers at once; more keeps replies in flight while the worker is stopped.
const AGENT_DELAY_MS = Number(process.env.OPS_AGENT_DELAY_MS ?? 0);
if (!(AGENT_DELAY_MS >= 0)) fail('OPS_AGENT_DELAY_MS must be a number of milliseconds', 2);
const REPLY_WAIT_MS = 40_000;
const READY_TIMEOUT_MS = 120_000;
const EXIT_TIMEOUT_MS = 35_000;
const REQUEST_TIMEOUT_MS = 10_000;
const POLL_MS = 500;
const FAILED_SENDS_GOAL = 0.01;

/** A timeout to race against: it does not keep the process alive once everything else is done. */
const timeout = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
const started = Date.now();
const t = () => `${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s`;
const say = (line) => console.log(`${t()}  ${line}`);

function fail(message, code = 1) {
  console.error(`ops-check: ${message}`);
  process.exit(code);
}

process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));

// ---------------------------------------------------------------------------------------------------
// What the check runs against: a database, a Redis, an agent webhook.

/** OPS_REDIS_URL, else a redis-server of our own (no persistence), stopped at the end. */
async function ownRedis() {
  if (process.env.OPS_REDIS_URL) return process.env.OPS_REDIS_URL;
  if (!REDIS_SERVER) fail('set OPS_REDIS_URL, or install redis-server (apt-get install -y redis-server)', 2);
  const port = await freePort();
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  onCleanup('redis-server', async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });
  await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout.on('data', (chunk) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return `redis://127.0.0.1:${port}`;
}

/** Answers `[{"output":"ok"}]` (after OPS_AGENT_DELAY_MS); counts calls per webhook-id (at-least-once). */
async function startWebhook() {
  const reply = JSON.stringify([{ output: 'ok' }]);
  const calls = new Map();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      calls.set(id, (calls.get(id) ?? 0) + 1);
      setTimeout(() => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(reply),
        });
        res.end(reply);
      }, AGENT_DELAY_MS);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup('webhook', () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/agent`, hostPort: `127.0.0.1:${port}`, calls };
}

// ---------------------------------------------------------------------------------------------------
// The processes: started, stopped with SIGTERM, started again, each with its log in logDir.

function makeNode({ label, entry, env, port, logDir }) {
  const node = {
    label,
    port,
    base: port ? `http://127.0.0.1:${port}` : null,
    child: null,
    exited: null,
    log: '',
    starts: 0,
    restart: null,
  };
  node.start = () => {
    node.starts++;
    node.log = '';
    const file = createWriteStream(join(logDir, `${label.replace(/\W+/g, '-')}.${node.starts}.log`));
    const child = spawn(process.execPath, [entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk) => {
      file.write(chunk);
      node.log = (node.log + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    node.child = child;
    node.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        file.end();
        resolve({ code, signal });
      }),
    );
  };
  node.waitReady = async () => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let early = null;
    void node.exited.then((status) => (early = status));
    for (;;) {
      if (early) throw new Error(`${label} exited while starting (${JSON.stringify(early)}):\n${node.log}`);
      if (Date.now() > deadline) throw new Error(`${label} not ready within ${READY_TIMEOUT_MS} ms`);
      if (node.base) {
        const res = await fetch(`${node.base}/api/health/ready`, { signal: AbortSignal.timeout(2000) }).catch(
          () => null,
        );
        await res?.text().catch(() => undefined);
        if (res?.status === 200) return;
      } else if (node.log.includes('Worker started')) return;
      await delay(100);
    }
  };
  /** SIGTERM, wait for the exit; SIGKILL after EXIT_TIMEOUT_MS. */
  node.stop = async () => {
    const t0 = Date.now();
    node.child.kill('SIGTERM');
    const status = await Promise.race([node.exited, timeout(EXIT_TIMEOUT_MS).then(() => null)]);
    if (status) return { ...status, ms: Date.now() - t0 };
    node.child.kill('SIGKILL');
    return { ...(await node.exited), ms: Date.now() - t0, killed: true };
  };
  onCleanup(label, async () => {
    if (!node.child || node.child.exitCode !== null || node.child.signalCode !== null) return;
    await node.stop();
  });
  return node;
}

// ---------------------------------------------------------------------------------------------------
// The balancer: which api nodes answer ready, polled as HAProxy does (ops/haproxy/haproxy.cfg).

function balancer(nodes) {
  const ready = new Set();
  let stopped = false;
  let turn = 0;
  const poll = async (node) => {
    while (!stopped) {
      const res = await fetch(`${node.base}/api/health/ready`, { signal: AbortSignal.timeout(1000) }).catch(
        () => null,
      );
      await res?.text().catch(() => undefined);
      if (res?.status === 200) ready.add(node);
      else ready.delete(node);
      await delay(POLL_MS);
    }
  };
  const polls = nodes.map((node) => poll(node));
  return {
    /** The next ready node, round robin; null when none is. */
    pick() {
      const list = nodes.filter((node) => ready.has(node));
      if (!list.length) return null;
      return list[turn++ % list.length];
    },
    async stop() {
      stopped = true;
      await Promise.all(polls);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The public API.

async function call(base, session, method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (session?.token) headers.authorization = `Bearer ${session.token}`;
  if (session?.companyId) headers['x-company-id'] = session.companyId;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

async function expect(promise, status, what) {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: ${res.status} (expected ${status}): ${res.text}`);
  return res.body;
}

// ---------------------------------------------------------------------------------------------------
// The browser tab: one socket at a time, through a ready node; after a reconnect, resync by cursor.

function tab(lb, session, sends) {
  const live = new Map(); // reply id → repeated live deliveries on one connection (a duplicate each)
  let connections = 0;
  let resynced = 0;
  let socket = null;
  let closed = false;
  let connectedOnce = false;

  const connect = async () => {
    while (!closed) {
      const node = lb.pick();
      if (!node) {
        await delay(200);
        continue;
      }
      const s = io(node.base, {
        auth: { token: session.token },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        timeout: 5000,
      });
      const seenHere = new Set();
      s.on('message.created', (payload) => {
        const message = payload?.message;
        if (message?.senderType !== 'agent') return;
        live.set(message.id, (live.get(message.id) ?? 0) + (seenHere.has(message.id) ? 1 : 0));
        seenHere.add(message.id);
        sends.deliver(message, 'live');
      });
      s.on('agent.reply_failed', (payload) => sends.failedReply(payload?.chatId));
      const ok = await new Promise((resolve) => {
        s.once('connect', () => resolve(true));
        s.once('connect_error', () => resolve(false));
      });
      if (!ok) {
        s.close();
        await delay(200);
        continue;
      }
      connections++;
      if (connectedOnce) say(`client: socket reconnected through ${node.label}`);
      socket = s;
      s.once('disconnect', () => {
        socket = null;
        if (!closed) void connect();
      });
      if (connectedOnce) await resync(node);
      connectedOnce = true;
      return;
    }
  };

  /** What a reconnecting client does: each chat still waiting, its messages after the user's message. */
  const resync = async (node) => {
    for (const send of sends.waiting()) {
      const res = await call(
        node.base,
        session,
        'GET',
        `/api/chats/${send.chatId}/messages?after=${send.seq}`,
      ).catch(() => null);
      for (const message of res?.body?.messages ?? []) {
        if (message.senderType === 'agent' && sends.deliver(message, 'resync')) resynced++;
      }
    }
  };

  return {
    connect,
    resync: async () => {
      const node = lb.pick();
      if (node) await resync(node);
    },
    stats: () => ({
      connections,
      resynced,
      liveDuplicates: [...live.values()].reduce((a, b) => a + b, 0),
    }),
    close() {
      closed = true;
      socket?.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The sends: one message at a time per chat, OPS_RATE a second over the ready nodes.

function sender(lb, session, chatIds) {
  const all = [];
  const pendingByChat = new Map(); // chatId → the send whose reply the chat waits for
  const idle = [...chatIds];
  const retired = new Set(); // chats whose last send failed in an unknown state: not used again
  let skipped = 0;
  let failedReplies = 0;
  let stopped = false;

  const replies = new Map(); // user message id → Set of reply ids the client learnt of (live or by resync)
  const early = new Map(); // chatId → agent messages that came before their send's 201 was read

  const settle = (send, message, how) => {
    const set = replies.get(send.messageId) ?? new Set();
    const isNew = !set.has(message.id);
    set.add(message.id);
    replies.set(send.messageId, set);
    if (!send.repliedAt) {
      send.repliedAt = Date.now();
      send.how = how;
      pendingByChat.delete(send.chatId);
      idle.push(send.chatId);
    }
    return isNew;
  };

  const api = {
    all,
    replies,
    skipped: () => skipped,
    failedReplies: () => failedReplies,
    retired,
    /** An agent message the client received: the reply to the chat's last send. New to the client? */
    deliver(message, how) {
      const last = all.findLast((s) => s.chatId === message.chatId);
      const answering = last && last.status === null && !last.error; // its POST is not answered yet
      const send =
        pendingByChat.get(message.chatId) ??
        all.findLast((s) => s.chatId === message.chatId && s.status === 201);
      if (answering || !send || BigInt(message.seq) <= BigInt(send.seq)) {
        // The reply can beat the 201 to the client (the job is queued before the response is written).
        const list = early.get(message.chatId) ?? [];
        if (!list.some((m) => m.id === message.id)) list.push({ message, how });
        early.set(message.chatId, list);
        return true;
      }
      return settle(send, message, how);
    },
    failedReply(chatId) {
      failedReplies++;
      const send = pendingByChat.get(chatId);
      if (send) send.replyFailed = true;
    },
    waiting: () => [...pendingByChat.values()],
    /** Agent messages the client could not match to a send of its own. */
    unmatched: () => [...early.values()].reduce((n, list) => n + list.length, 0),
    async run() {
      const interval = 1000 / RATE;
      let next = Date.now();
      let n = 0;
      const inFlight = new Set();
      while (!stopped) {
        next += interval;
        const chatId = idle.shift();
        if (!chatId) skipped++;
        else {
          const p = send(chatId, ++n).finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
        await delay(Math.max(0, next - Date.now()));
      }
      await Promise.all(inFlight);
    },
    stop() {
      stopped = true;
    },
  };

  async function send(chatId, n) {
    const record = { chatId, n, at: Date.now(), node: null, status: null, error: null };
    all.push(record);
    const node = lb.pick();
    if (!node) {
      record.error = 'no ready api node';
      idle.push(chatId);
      return;
    }
    record.node = node.label;
    try {
      const res = await call(node.base, session, 'POST', `/api/chats/${chatId}/messages`, {
        content: `ops-check ${n}`,
      });
      record.status = res.status;
      if (res.status === 201) {
        record.messageId = res.body.id;
        record.seq = res.body.seq;
        pendingByChat.set(chatId, record);
        const before = early.get(chatId) ?? [];
        early.delete(chatId);
        for (const { message, how } of before) {
          if (BigInt(message.seq) > BigInt(record.seq)) settle(record, message, how);
          else (early.get(chatId) ?? early.set(chatId, []).get(chatId)).push({ message, how });
        }
      } else {
        record.error = `${res.status} ${res.text.slice(0, 120)}`;
        // 409: a reply is pending in this chat that we do not know of (an earlier send's fate unknown).
        if (res.status === 409) retired.add(chatId);
        else idle.push(chatId);
      }
    } catch (error) {
      record.error = error?.cause?.code ?? error?.name ?? String(error);
      // Refused before anything was sent: the chat is free. Anything else: it may have been stored.
      if (record.error === 'ECONNREFUSED') idle.push(chatId);
      else retired.add(chatId);
    }
  }

  return api;
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  const serverUrl = process.env.OPS_DATABASE_URL;
  if (!serverUrl)
    fail(
      'set OPS_DATABASE_URL to a PostgreSQL server where this user may create a database, e.g.\n' +
        '  OPS_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run ops-check',
      2,
    );
  if (!existsSync(MAIN) || !existsSync(WORKER)) fail('backend/dist is missing: run `npm run build` first', 2);

  const logDir = mkdtempSync(join(os.tmpdir(), 'switchboard-ops-check-'));
  onCleanup('logs', () => {
    if (process.env.OPS_KEEP_LOGS === '1' || process.exitCode) console.log(`logs kept in ${logDir}`);
    else rmSync(logDir, { recursive: true, force: true });
  });

  const databaseUrl = await ownDatabase(serverUrl, 'ops');
  const redisUrl = await ownRedis();
  const webhook = await startWebhook();
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('OPS_')) delete env[name];
  for (const name of ['PORT', 'APP_ORIGIN', 'PROCESS_ROLE', 'DEFAULT_AGENT_WEBHOOK', 'METRICS_PORT'])
    delete env[name];
  Object.assign(env, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    BULLMQ_PREFIX: `ops${process.pid}`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    WEBHOOK_ALLOWED_HOSTS: webhook.hostPort,
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    // One user sends far more than 60 messages a minute here: raise the limits (the limiter still runs).
    RATE_LIMIT_SCALE: env.RATE_LIMIT_SCALE ?? '1000',
  });
  const dataDir = (label) => {
    const dir = mkdtempSync(join(os.tmpdir(), `switchboard-ops-${label}-`));
    onCleanup(`${label} data`, () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const apiNode = async (label) => {
    const port = await freePort();
    return makeNode({
      label,
      entry: MAIN,
      port,
      logDir,
      env: {
        ...env,
        PROCESS_ROLE: 'api',
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_ORIGIN: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir(label),
      },
    });
  };
  const apiA = await apiNode('api-A');
  const apiB = await apiNode('api-B');
  const worker = makeNode({
    label: 'worker',
    entry: WORKER,
    logDir,
    env: { ...env, PROCESS_ROLE: 'worker', DATA_DIR: dataDir('worker') },
  });
  for (const node of [apiA, apiB, worker]) node.start();
  await Promise.all([apiA, apiB, worker].map((node) => node.waitReady()));
  say(`2 api nodes (${apiA.base}, ${apiB.base}) and 1 worker ready`);

  // Sign up through the public API.
  const registered = await expect(
    call(apiA.base, null, 'POST', '/api/auth/register', {
      email: 'ops-check@example.com',
      password: 'ops-check-password-1',
      fullName: 'Ops Check',
      companyName: 'Ops Check Co',
    }),
    201,
    'register',
  );
  const session = { token: registered.accessToken, companyId: null };
  const me = await expect(call(apiA.base, session, 'GET', '/api/me'), 200, 'GET /api/me');
  session.companyId = me.companies[0].id;
  const agent = await expect(
    call(apiA.base, session, 'POST', '/api/agents', { name: 'Ops agent', webhook: webhook.url }),
    201,
    'create agent',
  );
  const chatIds = [];
  for (let i = 0; i < CHATS; i++) {
    const base = (i % 2 ? apiB : apiA).base;
    const chat = await expect(
      call(base, session, 'POST', '/api/chats', { agentId: agent.id, title: `ops ${i}` }),
      201,
      'create chat',
    );
    chatIds.push(chat.id);
  }
  say(`signed up, agent on ${webhook.url}, ${CHATS} chats`);

  const lb = balancer([apiA, apiB]);
  onCleanup('balancer', () => lb.stop());
  while (!lb.pick()) await delay(100);
  const sends = sender(lb, session, chatIds);
  const client = tab(lb, session, sends);
  onCleanup('socket', () => client.close());
  await client.connect();
  say(`client connected; sending ${RATE} messages a second`);
  const sending = sends.run();

  const restarts = [];
  const restart = async (node) => {
    say(`${node.label}: SIGTERM`);
    const stop = await node.stop();
    say(`${node.label}: exited (code ${stop.code}${stop.killed ? ', killed' : ''}) after ${stop.ms} ms`);
    const t0 = Date.now();
    node.start();
    await node.waitReady();
    const readyMs = Date.now() - t0;
    say(`${node.label}: started again, ready after ${readyMs} ms`);
    restarts.push({
      label: node.label,
      exitCode: stop.code,
      killed: !!stop.killed,
      stopMs: stop.ms,
      readyMs,
    });
  };

  await delay(WARMUP_MS);
  for (let round = 0; round < ROUNDS; round++) {
    await restart(apiA);
    await delay(PAUSE_MS);
    await restart(apiB);
    await delay(PAUSE_MS);
    await restart(worker);
    await delay(round === ROUNDS - 1 ? TAIL_MS : PAUSE_MS);
  }
  sends.stop();
  await sending;
  say(`sending stopped; waiting for the last replies (${REPLY_WAIT_MS / 1000} s at most)`);
  const deadline = Date.now() + REPLY_WAIT_MS;
  while (sends.waiting().length && Date.now() < deadline) await delay(200);
  // Whatever the socket did not bring, as a client reloading the chats would.
  if (sends.waiting().length) await client.resync();
  const tabStats = client.stats();
  client.close();

  // The database: each user message and its agent replies.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const { rows } = await db.query(
    `SELECT u.id, u.reply_status, count(a.id)::int AS replies
       FROM messages u LEFT JOIN messages a ON a.reply_to = u.id AND a.sender_type = 'agent'
      WHERE u.sender_type = 'user' GROUP BY u.id, u.reply_status`,
  );
  await db.end();
  const stored = new Map(rows.map((r) => [r.id, r]));

  const all = sends.all;
  const created = all.filter((s) => s.status === 201);
  const failed = all.filter((s) => s.status !== 201);
  const createdIds = new Set(created.map((s) => s.messageId));
  let replied = 0;
  let missing = 0;
  let duplicates = 0;
  for (const s of created) {
    const n = stored.get(s.messageId)?.replies ?? 0;
    if (n === 0) missing++;
    else replied++;
    if (n > 1) duplicates += n - 1;
  }
  const storedWithout201 = rows.filter((r) => !createdIds.has(r.id));
  const clientReplies = created.filter((s) => (sends.replies.get(s.messageId)?.size ?? 0) > 0);
  const clientMissing = created.length - clientReplies.length;
  const clientDuplicates =
    created.reduce((n, s) => n + Math.max(0, (sends.replies.get(s.messageId)?.size ?? 0) - 1), 0) +
    tabStats.liveDuplicates;
  const live = created.filter((s) => s.how === 'live').length;
  const repeatedCalls = [...webhook.calls.values()].filter((c) => c > 1).length;
  const failedRatio = all.length ? failed.length / all.length : 0;
  const latencies = created
    .filter((s) => s.repliedAt)
    .map((s) => s.repliedAt - s.at)
    .sort((a, b) => a - b);
  const pct = (p) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : null;

  console.log('\nRestarts');
  for (const r of restarts)
    console.log(
      `  ${r.label.padEnd(8)} exit code ${r.exitCode}${r.killed ? ' (SIGKILL)' : ''}, stopped in ${r.stopMs} ms, ready again ${r.readyMs} ms after start`,
    );
  const nodes = new Map();
  for (const s of all) if (s.node) nodes.set(s.node, (nodes.get(s.node) ?? 0) + 1);
  const perNode = [...nodes].map(([label, n]) => `${label} ${n}`).join(', ');
  const failures = new Map();
  for (const s of failed) failures.set(s.error, (failures.get(s.error) ?? 0) + 1);
  const figures = [
    ['sends', all.length],
    ['201s', created.length],
    [`failed sends (${(failedRatio * 100).toFixed(2)}%)`, failed.length],
    ['replies (database, one or more per 201)', replied],
    ['duplicates (database: extra replies to one message)', duplicates],
    ['missing (database: a 201 without a reply)', missing],
    [
      'replies the client received (live + resync)',
      `${clientReplies.length} (${live} + ${clientReplies.length - live})`,
    ],
    ['client duplicates', clientDuplicates],
    ['client: replies matching no send', sends.unmatched()],
    ['client missing', clientMissing],
    ['stored without a 201 (send failed after storing)', storedWithout201.length],
    ['agent.reply_failed events', sends.failedReplies()],
    ['webhook calls repeated (same webhook-id, at-least-once)', repeatedCalls],
    ['sends skipped (no chat free)', sends.skipped()],
    ['sends per api node', perNode],
    ['socket connections', tabStats.connections],
    [
      'send → reply on the client, p50 / p99 / max (ms)',
      `${pct(0.5)} / ${pct(0.99)} / ${latencies.at(-1) ?? null}`,
    ],
  ];
  console.log('\nFigures');
  for (const [label, value] of figures) console.log(`  ${label.padEnd(56)} ${value}`);
  if (failures.size) {
    console.log('\nFailed sends by cause');
    for (const [cause, n] of failures) console.log(`  ${String(n).padStart(4)} × ${cause}`);
  }

  const problems = [];
  if (missing) problems.push(`${missing} message(s) with a 201 have no reply`);
  if (duplicates) problems.push(`${duplicates} duplicate repl(ies) in the database`);
  if (clientMissing) problems.push(`${clientMissing} repl(ies) never reached the client`);
  if (clientDuplicates) problems.push(`${clientDuplicates} duplicate repl(ies) on the client`);
  if (sends.unmatched()) problems.push(`${sends.unmatched()} repl(ies) on the client matching no send`);
  if (failedRatio > FAILED_SENDS_GOAL)
    problems.push(`${(failedRatio * 100).toFixed(2)}% of sends failed (> 1%)`);
  if (restarts.some((r) => r.killed || r.exitCode !== 0))
    problems.push('a process did not exit 0 on SIGTERM');
  if (!created.length) problems.push('no message was accepted');
  const summary = {
    date: new Date().toISOString(),
    rate: RATE,
    chats: CHATS,
    rounds: ROUNDS,
    agentDelayMs: AGENT_DELAY_MS,
    restarts,
    figures: Object.fromEntries(figures),
    problems,
  };
  writeFileSync(join(logDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  if (problems.length) {
    console.log(`\nops-check: goal missed: ${problems.join('; ')}`);
    process.exitCode = 1;
  } else
    console.log(
      '\nops-check: goal met: every 201 has exactly one reply, every reply reached the client, ≤ 1% of sends failed',
    );
}

try {
  await main();
} catch (error) {
  console.error(
    `\nops-check failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exitCode = 1;
} finally {
  await cleanup();
}
