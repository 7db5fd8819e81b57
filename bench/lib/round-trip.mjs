// The message round trip harness: the systems under test (Switchboard and the baseline, each a `send`
// that resolves with one message's round trip in ms) and the interleaved runner the round-trip phases
// plug their shapes into (bench/phases/round-trip.mjs).
import { connectSocket, replyRouter } from './clients.mjs';
import { CONFIG } from './config.mjs';
import { cpuProbe } from './cpu.mjs';
import { startBaseline } from './servers.mjs';
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
 * Switchboard: `POST /api/chats/:id/messages` → `message.created` from the agent on the user's socket.
 * Its probe also collects the `POST → 201` time alone (`postOnly`).
 */
export async function switchboardSystem({ app, api }, { sequentialChat, concurrentChats }) {
  const appSocket = await connectSocket(app.base, { token: api.session.token });
  const appReplies = replyRouter(appSocket, ['agent.reply_failed']);
  let collected = [];
  let postLatencies = null; // POST → 201 alone, collected during measured runs
  const sendToApp = async (chatId, i) => {
    const reply = appReplies.wait(chatId, CONFIG.replyTimeoutMs);
    const started = now();
    let res;
    try {
      res = await fetch(`${app.base}/api/chats/${chatId}/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${api.session.token}`,
          'x-company-id': api.session.companyId,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ content: `bench message ${i}` }),
        signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
      });
      const text = await res.text();
      if (res.status !== 201)
        throw new Error(`POST /api/chats/:id/messages answered ${res.status}: ${text.slice(0, 300)}`);
    } catch (error) {
      appReplies.cancel(chatId);
      await reply.catch(() => undefined);
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new Error(`POST /api/chats/:id/messages: no answer within ${CONFIG.requestTimeoutMs} ms`, {
          cause: error,
        });
      }
      throw error;
    }
    postLatencies?.push(now() - started);
    return (await reply) - started;
  };
  return {
    name: 'switchboard',
    send: sendToApp,
    sequentialChat,
    concurrentChats,
    probe: cpuProbe(app.pid, app.postmasterPid, {
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

/** The baseline: the same shapes against a bare Socket.IO server doing one INSERT per message. */
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
    name: 'baseline',
    send: sendToBaseline,
    sequentialChat: 'baseline-sequential',
    concurrentChats: concurrentChats.map((_, i) => `baseline-${i}`),
    probe: cpuProbe(baselineServer.pid, app.postmasterPid),
  };
}
