// Phase: agent calls in flight (issue 24), on the machine's PostgreSQL and Redis (BENCH_DATABASE_URL and
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
import { distributedEnv } from '../lib/distributed-env.mjs';
import { onCleanup } from '../lib/lifecycle.mjs';
import { fmt, table } from '../lib/output.mjs';
import { spawnNode } from '../lib/servers.mjs';
import { rssKb } from '../lib/sockets.mjs';
import { delay, freePort, now, withTimeout } from '../lib/util.mjs';

const {
  chats: CHATS,
  agentDelayMs,
  capped,
  sendConcurrency,
  goalInFlight,
  goalLastReplyMs,
} = CONFIG.callsInFlight;

/** The slow agent: answers `[{"output":"ok"}]` after `agentDelayMs`, counting the calls it holds. */
async function startSlowAgent() {
  const reply = JSON.stringify([{ output: 'ok' }]);
  const state = { inFlight: 0, max: 0, calls: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
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
  return { url: `http://127.0.0.1:${port}/agent`, hostPort: `127.0.0.1:${port}`, state };
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
    if (res?.status !== 201) {
      failedSends++;
      pending.delete(chatId);
    }
    await res?.text();
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
    const port = await freePort();
    const apiNode = await spawnNode(
      APP_ENTRY,
      { ...env, PROCESS_ROLE: 'api', PORT: String(port), APP_ORIGIN: `http://127.0.0.1:${port}` },
      'calls api',
      port,
    );
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
    if (result.kbPerCallInFlight !== null)
      console.log(
        `  worker memory per call in flight: ${fmt(result.kbPerCallInFlight)} kB (round a, RSS growth / peak)`,
      );
  },
};
