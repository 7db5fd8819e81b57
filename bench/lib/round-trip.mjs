// The message round trip harness: the systems under test (Switchboard and the baseline, each a `send`
// that resolves with one message's round trip in ms) and the interleaved runner the round-trip phases
// plug their shapes into (bench/phases/round-trip.mjs).
import jwt from 'jsonwebtoken';
import { connectSocket, replyRouter } from './clients.mjs';
import { CONFIG } from './config.mjs';
import { cpuProbe } from './cpu.mjs';
import { startBaseline, startSamePath } from './servers.mjs';
import { summarize } from './stats.mjs';
import { now } from './util.mjs';

/** n messages one after another in one chat. */
export async function runSequential(send, chatId, n) {
  const latencies = [];
  const started = now();
  for (let i = 0; i < n; i++) latencies.push(await send(chatId, i));
  return { latencies, wallMs: now() - started };
}

/** One sequential sender per chat, all chats at once. */
export async function runConcurrent(send, chatIds, perChat) {
  const latencies = [];
  const started = now();
  await Promise.all(
    chatIds.map(async (chatId) => {
      for (let i = 0; i < perChat; i++) latencies.push(await send(chatId, i));
    }),
  );
  return { latencies, wallMs: now() - started };
}

/**
 * Warm-up (every shape's, system by system), then every shape for every system under test. The measured
 * runs are cut into blocks and the systems take turns (A B B A ...), so background load on a shared
 * machine lands on all of them alike instead of on whichever happened to run during it. Fills
 * `results[system][shape]` as each shape finishes.
 *
 * A shape: `{ name, label, blocks, total, warmUp(system), run(system, size) }`, where `run` sends `size`
 * messages per chat and resolves with `{ latencies, wallMs }`.
 */
export async function measureRoundTrips(systems, shapes, results) {
  process.stdout.write('  warm-up');
  for (const system of systems) {
    for (const shape of shapes) await shape.warmUp(system);
  }
  for (const system of systems) results[system.name] = {};
  for (const shape of shapes) {
    process.stdout.write(`, ${shape.label}`);
    const size = Math.ceil(shape.total / shape.blocks);
    const acc = new Map(systems.map((system) => [system, { latencies: [], wallMs: 0 }]));
    for (let block = 0, done = 0; done < shape.total; block++, done += size) {
      const order = block % 2 === 0 ? systems : [...systems].reverse();
      for (const system of order) {
        system.probe.begin();
        const run = await shape.run(system, Math.min(size, shape.total - done));
        system.probe.end();
        acc.get(system).latencies.push(...run.latencies);
        acc.get(system).wallMs += run.wallMs;
      }
    }
    for (const system of systems) {
      const { latencies, wallMs } = acc.get(system);
      results[system.name][shape.name] = {
        ...summarize(latencies, wallMs),
        ...system.probe.take(latencies.length),
      };
    }
  }
  process.stdout.write(' done\n');
  return results;
}

/**
 * A system under test that takes messages as `POST /api/chats/:id/messages` and answers with
 * `message.created` from the agent on the user's socket: Switchboard, and the same-path baseline. One
 * client code for both, so the bench's own CPU is alike. Its probe also collects `POST → 201` alone.
 */
export async function httpSystem({
  name,
  base,
  // Distributed: the POSTs go round-robin over these api nodes, the socket stays on `base`.
  postBases = [base],
  token,
  companyId,
  pid,
  postmasterPid,
  sequentialChat,
  concurrentChats,
}) {
  const socket = await connectSocket(base, { token });
  const replies = replyRouter(socket, ['agent.reply_failed']);
  let collected = [];
  let turn = 0;
  let postLatencies = null; // POST → 201 alone, collected during measured runs
  const send = async (chatId, i) => {
    const reply = replies.wait(chatId, CONFIG.replyTimeoutMs);
    const started = now();
    let res;
    try {
      res = await fetch(`${postBases[turn++ % postBases.length]}/api/chats/${chatId}/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-company-id': companyId,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ content: `bench message ${i}` }),
        signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
      });
      const text = await res.text();
      if (res.status !== 201)
        throw new Error(
          `${name}: POST /api/chats/:id/messages answered ${res.status}: ${text.slice(0, 300)}`,
        );
    } catch (error) {
      replies.cancel(chatId);
      await reply.catch(() => undefined);
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new Error(
          `${name}: POST /api/chats/:id/messages: no answer within ${CONFIG.requestTimeoutMs} ms`,
          {
            cause: error,
          },
        );
      }
      throw error;
    }
    postLatencies?.push(now() - started);
    return (await reply) - started;
  };
  return {
    name,
    send,
    sequentialChat,
    concurrentChats,
    probe: cpuProbe(pid, postmasterPid ?? null, {
      begin: () => (postLatencies = collected),
      end: () => (postLatencies = null),
      take() {
        const post = summarize(collected);
        collected = [];
        return { postOnly: { p50: post.p50, p90: post.p90, p99: post.p99, mean: post.mean } };
      },
    }),
  };
}

/** Switchboard: `POST /api/chats/:id/messages` → `message.created` from the agent on the user's socket. */
export function switchboardSystem({ app, api }, { sequentialChat, concurrentChats }) {
  return httpSystem({
    name: 'switchboard',
    base: app.base,
    token: api.session.token,
    companyId: api.session.companyId,
    pid: app.pid,
    postmasterPid: app.postmasterPid,
    sequentialChat,
    concurrentChats,
  });
}

/**
 * The same-path baseline (bench/same-path-server.mjs): the same requests and events, the same work by
 * hand, on chats of its own (created through the API) in the same database, for the same session.
 */
export async function samePathSystem(
  { app, api, userId },
  { sequentialChat, concurrentChats },
  { product = false } = {},
) {
  const { sid } = jwt.decode(api.session.token);
  const server = await startSamePath(app.databaseUrl, userId, sid, { product });
  return httpSystem({
    name: product ? 'samePathProduct' : 'samePath',
    base: server.url,
    token: server.token,
    companyId: api.session.companyId,
    pid: server.pid,
    postmasterPid: app.postmasterPid,
    sequentialChat,
    concurrentChats,
  });
}

/** The floor: the same shapes against a bare Socket.IO server doing one INSERT per message. */
export async function baselineSystem({ app, db }, { concurrentChats }) {
  await db.query(
    'CREATE TABLE IF NOT EXISTS bench_baseline (id bigserial PRIMARY KEY, content text, created_at timestamptz DEFAULT now())',
  );
  const baselineServer = await startBaseline(app.databaseUrl);
  const baselineSocket = await connectSocket(baselineServer.url, {});
  const baselineReplies = replyRouter(baselineSocket, ['message.failed']);
  const sendToBaseline = async (chatId, i) => {
    const reply = baselineReplies.wait(chatId, CONFIG.replyTimeoutMs);
    const started = now();
    baselineSocket.emit('message', { chatId, content: `bench message ${i}` });
    return (await reply) - started;
  };
  return {
    name: 'floor',
    send: sendToBaseline,
    sequentialChat: 'baseline-sequential',
    concurrentChats: concurrentChats.map((_, i) => `baseline-${i}`),
    probe: cpuProbe(baselineServer.pid, app.postmasterPid),
  };
}

async function chatsFor(ctx, prefix) {
  const sequentialChat = await ctx.newChat(`${prefix} sequential`);
  const concurrentChats = [];
  for (let i = 0; i < CONFIG.concurrentChats; i++) concurrentChats.push(await ctx.newChat(`${prefix} ${i}`));
  return { sequentialChat, concurrentChats };
}

/**
 * The four systems under test, made once per run (the phases that send messages share them): each
 * with chats of its own, the floor with names only (it stores no chats).
 */
export function roundTripSystems(ctx) {
  ctx.systems ??= (async () => {
    const switchboardChats = await chatsFor(ctx, 'switchboard');
    const samePathChats = await chatsFor(ctx, 'same-path');
    const productChats = await chatsFor(ctx, 'same-path-product');
    return {
      switchboard: await switchboardSystem(ctx, switchboardChats),
      samePath: await samePathSystem(ctx, samePathChats),
      samePathProduct: await samePathSystem(ctx, productChats, { product: true }),
      floor: await baselineSystem(ctx, switchboardChats),
    };
  })();
  return ctx.systems;
}
