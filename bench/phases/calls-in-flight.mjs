// Phase: agent calls in flight, on the machine's PostgreSQL and Redis (BENCH_DATABASE_URL and
// BENCH_REDIS_URL, as the distributed phase; skipped without them). An agent that answers after 5 s, one
// message in each of 1,000 chats sent as fast as the api takes them, through one api node and BullMQ
// workers of the same build:
//   a. one worker at its default WORKER_CONCURRENCY: how many calls it holds at once (the goal: ≥ 500) and
//      how long after the last send the last reply arrives (the goal: ≤ 15 s); its resident memory per
//      call in flight;
//   b. one worker, then two, at WORKER_CONCURRENCY=250: a second worker raises the ceiling.
// The agent is a local `http` server counting the requests it holds open.
import http from 'node:http';
import { connectSocket, signUp } from '../lib/clients.mjs';
import { APP_ENTRY, CONFIG } from '../lib/config.mjs';
import { distributedEnv, spawnApiNode } from '../lib/distributed-env.mjs';
import { onCleanup } from '../lib/lifecycle.mjs';
import { fmt, table } from '../lib/output.mjs';
import { spawnNode } from '../lib/servers.mjs';
import { rssKb } from '../lib/sockets.mjs';
import { delay, now, withTimeout } from '../lib/util.mjs';

const {
  chats: CHATS,
  agentDelayMs,
  capped,
  sendConcurrency,
  goalInFlight,
  goalLastReplyMs,
  streams: STREAMS,
  streamChunks,
  chunkEveryMs,
} = CONFIG.callsInFlight;

/**
 * n8n's streaming answer (chunked NDJSON: begin, items, end) of `streamChunks` pieces, one every
 * `chunkEveryMs`; each piece is the time it was written (`Date.now()|`), so the tab can tell its delay.
 */
function streamAnswer(res) {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  const meta = { nodeId: 'bench', nodeName: 'Respond', itemIndex: 0, runIndex: 0 };
  res.write(`${JSON.stringify({ type: 'begin', metadata: meta })}\n`);
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    res.write(`${JSON.stringify({ type: 'item', content: `${Date.now()}|`, metadata: meta })}\n`);
    if (++sent < streamChunks) return;
    clearInterval(timer);
    res.end(`${JSON.stringify({ type: 'end', metadata: meta })}\n`);
  }, chunkEveryMs);
}

/**
 * The slow agent: answers `[{"output":"ok"}]` after `agentDelayMs` (at /agent), or streams (at /stream),
 * counting the calls it holds.
 */
async function startSlowAgent() {
  const reply = JSON.stringify([{ output: 'ok' }]);
  const state = { inFlight: 0, max: 0, calls: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/stream') return streamAnswer(res);
      state.calls++;
      state.inFlight++;
      state.max = Math.max(state.max, state.inFlight);
      setTimeout(() => {
        state.inFlight--;
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(reply),
        });
        res.end(reply);
      }, agentDelayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  onCleanup('slow agent', () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}/agent`,
    streamUrl: `http://127.0.0.1:${port}/stream`,
    hostPort: `127.0.0.1:${port}`,
    state,
  };
}

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimited(items, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

/** One message in every chat, `sendConcurrency` at a time; `failed(chatId)` for each not taken (201). */
async function sendOneEach(api, chats, label, failed) {
  await eachLimited(chats, sendConcurrency, async (chatId, i) => {
    const res = await fetch(`${api.base}/api/chats/${chatId}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.token}`,
        'x-company-id': api.companyId,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ content: `${label} ${i}` }),
      signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
    }).catch(() => null);
    if (res?.status !== 201) failed(chatId);
    await res?.text();
  });
}

/**
 * One message in every chat; resolves when every reply has come (or the timeout): the agent's peak of
 * calls held at once, the last send and the last reply, and the workers' resident memory peak.
 */
async function round({ api, chats, agent, replies, workerPids, label }) {
  agent.state.max = agent.state.inFlight;
  const rssBefore = workerPids.map((pid) => rssKb(pid) ?? 0);
  const rssPeak = [...rssBefore];
  const sampler = setInterval(() => {
    workerPids.forEach((pid, i) => (rssPeak[i] = Math.max(rssPeak[i], rssKb(pid) ?? 0)));
  }, 100);
  const pending = new Set(chats);
  let lastReplyAt = 0;
  const allReplied = new Promise((resolve) => {
    replies.onReply = (chatId) => {
      if (!pending.delete(chatId)) return;
      lastReplyAt = now();
      if (!pending.size) resolve();
    };
  });
  const startedAt = now();
  let failedSends = 0;
  await sendOneEach(api, chats, label, (chatId) => {
    failedSends++;
    pending.delete(chatId);
  });
  const lastSendAt = now();
  await withTimeout(allReplied, agentDelayMs + 120_000, `${label}: replies`).catch(() => undefined);
  clearInterval(sampler);
  const peakKb = rssPeak.map((kb, i) => kb - rssBefore[i]);
  return {
    label,
    messages: chats.length,
    failedSends,
    unanswered: pending.size,
    sendSeconds: (lastSendAt - startedAt) / 1000,
    maxInFlight: agent.state.max,
    lastReplyAfterLastSendMs: pending.size ? null : Math.max(0, lastReplyAt - lastSendAt),
    perSecond: (chats.length - pending.size) / ((Math.max(lastReplyAt, lastSendAt) - startedAt) / 1000),
    workerRssGrowthKb: peakKb,
  };
}

/**
 * `STREAMS` streamed replies at once: one message in each stream chat. What reaches the open tab: the
 * pieces' delay from the agent's write to the tab (p50/p99), whether every piece came, and when the last
 * reply was stored.
 */
async function streamRound({ api, chats, socket }) {
  const lags = [];
  const pieces = new Map();
  const done = new Set();
  let lastReplyAt = 0;
  const onDelta = (payload) => {
    const at = Date.now();
    if (!pieces.has(payload?.chatId)) return;
    for (const stamp of String(payload.text).split('|')) {
      if (!stamp) continue;
      lags.push(at - Number(stamp));
      pieces.set(payload.chatId, pieces.get(payload.chatId) + 1);
    }
  };
  const allDone = new Promise((resolve) => {
    socket.on('message.created', (payload) => {
      if (payload?.message?.senderType !== 'agent' || !pieces.has(payload.chatId)) return;
      done.add(payload.chatId);
      lastReplyAt = now();
      if (done.size === chats.length) resolve();
    });
  });
  socket.on('message.delta', onDelta);
  for (const chatId of chats) pieces.set(chatId, 0);
  const startedAt = now();
  let failedSends = 0;
  await sendOneEach(api, chats, 'stream', () => failedSends++);
  const lastSendAt = now();
  const streamMs = streamChunks * chunkEveryMs;
  await withTimeout(allDone, streamMs + 120_000, 'streams').catch(() => undefined);
  socket.off('message.delta', onDelta);
  lags.sort((a, b) => a - b);
  const at = (q) => (lags.length ? lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] : null);
  const received = [...pieces.values()].reduce((a, b) => a + b, 0);
  return {
    streams: chats.length,
    piecesSent: chats.length * streamChunks,
    piecesReceived: received,
    replies: done.size,
    failedSends,
    lagP50Ms: at(0.5),
    lagP99Ms: at(0.99),
    lastReplyAfterLastSendMs: Math.max(0, lastReplyAt - lastSendAt),
    streamMs,
    sendSeconds: (lastSendAt - startedAt) / 1000,
  };
}

export const callsInFlight = {
  key: 'callsInFlight',
  title: `Agent calls in flight: ${CHATS} chats, one message each, an agent answering after ${agentDelayMs / 1000} s`,
  // Starts its own api and workers (on the machine's PostgreSQL and Redis): no embedded app needed.
  standalone: true,
  needsBuild: true,

  async measure(_ctx, result) {
    const serverUrl = process.env.BENCH_DATABASE_URL;
    const redisUrl = process.env.BENCH_REDIS_URL;
    if (!serverUrl || !redisUrl) {
      result.skipped = 'set BENCH_DATABASE_URL and BENCH_REDIS_URL to run it';
      return;
    }
    const agent = await startSlowAgent();
    const env = await distributedEnv({
      serverUrl,
      redisUrl,
      label: 'calls',
      agentHostPort: agent.hostPort,
      rateLimitScale: '10000',
    });
    const apiNode = await spawnApiNode(env, 'calls api');
    const d = await signUp(apiNode.base, agent.url);
    const api = { base: apiNode.base, token: d.api.session.token, companyId: d.api.session.companyId };
    const chats = new Array(CHATS);
    await eachLimited([...chats.keys()], 20, async (i) => (chats[i] = await d.newChat(`calls ${i}`)));
    const socket = await connectSocket(apiNode.base, { token: api.token });
    const replies = { onReply: () => undefined };
    socket.on('message.created', (payload) => {
      if (payload?.message?.senderType === 'agent') replies.onReply(payload.chatId);
    });
    const rounds = [];

    const worker = async (label, extra = {}) => {
      const started = await spawnNode(APP_ENTRY, { ...env, ...extra, PROCESS_ROLE: 'worker' }, label);
      await delay(CONFIG.distributed.workerStartMs);
      return started;
    };
    const stop = async (node) => {
      process.kill(node.pid, 'SIGTERM');
      await Promise.race([node.exited, delay(30_000)]);
    };

    const w1 = await worker('calls worker (default)');
    rounds.push(
      await round({
        api,
        chats,
        agent,
        replies,
        workerPids: [w1.pid],
        label: `a. 1 worker, ${process.env.WORKER_CONCURRENCY ?? 'default (1000)'}`,
      }),
    );
    await stop(w1);
    const capWorkers = [];
    for (const name of ['A', 'B']) {
      capWorkers.push(
        await worker(`calls worker ${name} (${capped})`, { WORKER_CONCURRENCY: String(capped) }),
      );
      const label = `b. ${capWorkers.length} worker${capWorkers.length > 1 ? 's' : ''}, ${capped} each`;
      const workerPids = capWorkers.map((w) => w.pid);
      rounds.push(await round({ api, chats, agent, replies, workerPids, label }));
    }
    result.rounds = rounds;
    // Streaming: a second agent whose webhook streams, and chats of its own.
    const streaming = await d.api.call(
      'POST',
      '/api/agents',
      { name: 'Bench streaming agent', webhook: agent.streamUrl },
      201,
    );
    const streamChats = new Array(STREAMS);
    await eachLimited([...streamChats.keys()], 20, async (i) => {
      const chat = await d.api.call(
        'POST',
        '/api/chats',
        { agentId: streaming.id, title: `stream ${i}` },
        201,
      );
      streamChats[i] = chat.id;
    });
    result.streaming = await streamRound({ api, chats: streamChats, socket });
    const a = rounds[0];
    result.kbPerCallInFlight = a.maxInFlight ? a.workerRssGrowthKb[0] / a.maxInFlight : null;
  },

  print(result) {
    console.log(
      `\nAgent calls in flight (goal: one worker holds ≥ ${goalInFlight}, last reply ≤ ${goalLastReplyMs / 1000} s after the last send; a second worker raises the ceiling)`,
    );
    if (result.skipped) return console.log(`  skipped: ${result.skipped}`);
    const rows = (result.rounds ?? []).map((r) => [
      r.label,
      String(r.maxInFlight),
      r.lastReplyAfterLastSendMs === null
        ? `${r.unanswered} unanswered`
        : fmt(r.lastReplyAfterLastSendMs / 1000),
      fmt(r.sendSeconds),
      fmt(r.perSecond),
      String(r.failedSends),
      r.workerRssGrowthKb.map((kb) => fmt(kb / 1024)).join(' + '),
    ]);
    console.log(
      table(
        [
          'round',
          'max calls in flight',
          'last reply after last send (s)',
          'sends took (s)',
          'replies/s',
          'failed sends',
          'worker RSS growth (MB)',
        ],
        rows,
      ),
    );
    const st = result.streaming;
    if (st)
      console.log(
        `  streaming: ${st.streams} streams of ${st.piecesSent / st.streams} pieces (one every ${chunkEveryMs} ms): ` +
          `${st.piecesReceived} of ${st.piecesSent} pieces reached the tab, delay p50 ${fmt(st.lagP50Ms)} ms / p99 ${fmt(st.lagP99Ms)} ms; ` +
          `${st.replies} replies stored, the last ${fmt(st.lastReplyAfterLastSendMs / 1000)} s after the last send (each stream lasts ${fmt(st.streamMs / 1000)} s); ${st.failedSends} failed sends`,
      );
    if (result.kbPerCallInFlight !== null)
      console.log(
        `  worker memory per call in flight: ${fmt(result.kbPerCallInFlight)} kB (round a, RSS growth / peak)`,
      );
  },
};
