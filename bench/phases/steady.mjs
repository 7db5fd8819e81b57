// Phase: a steady load on 10,000 sockets of one node. A fresh app of its own (the embedded default, with
// METRICS_PORT for its event-loop delay): CONFIG.steady.users users signed up through the API, each with
// a chat on the instant webhook and CONFIG.steady.socketsPerUser authenticated sockets (tabs and devices:
// every event of the user goes to all of them). Then CONFIG.steady.rate messages a second for
// CONFIG.steady.seconds, round robin over the users' chats (a chat's previous reply has long come by its
// next turn). Reported: the round trip (POST → the reply on the user's first socket), the app's
// event-loop delay p99 (prom-client's, per 5 s window), its RSS, and what was dropped: sends refused or
// failed, and replies that did not reach every socket of their user.
import { signUp } from '../lib/clients.mjs';
import { CONFIG } from '../lib/config.mjs';
import { onCleanup } from '../lib/lifecycle.mjs';
import { fmt, table } from '../lib/output.mjs';
import { startApp } from '../lib/servers.mjs';
import { closeAll, connectMany, rssKb } from '../lib/sockets.mjs';
import { summarize } from '../lib/stats.mjs';
import { delay, freePort, now } from '../lib/util.mjs';

const { users: userCount, socketsPerUser, rate, seconds } = CONFIG.steady;
const SAMPLE_EVERY_MS = 5000;

/** The app's event-loop delay p99 since the last scrape, in ms (prom-client resets it on every scrape). */
async function eventLoopP99(metricsUrl) {
  const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  const match = /^nodejs_eventloop_lag_p99_seconds(?:\{[^}]*\})? ([\d.e+-]+)$/m.exec(text);
  return match ? Number(match[1]) * 1000 : null;
}

/** `n` at once at most, in order; resolves with every result. */
async function inBatches(items, n, task) {
  const results = [];
  for (let i = 0; i < items.length; i += n)
    results.push(...(await Promise.all(items.slice(i, i + n).map(task))));
  return results;
}

export const steady = {
  key: 'steady',
  title: `Steady load: ${(userCount * socketsPerUser).toLocaleString('en')} sockets, ${rate} messages a second for ${seconds} s`,

  async measure({ webhook }, result) {
    const metricsPort = await freePort();
    const app = await startApp(webhook.hostPort, undefined, { METRICS_PORT: String(metricsPort) });
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const indices = Array.from({ length: userCount }, (_, i) => i);
    const users = await inBatches(indices, 4, async (i) => {
      const { api, newChat } = await signUp(app.base, webhook.url, `steady-${i}@example.com`);
      return { api, chatId: await newChat('steady'), sockets: [], received: new Map(), accepted: 0 };
    });
    const all = [];
    onCleanup('steady sockets', () => closeAll(all));
    const rssStart = rssKb(app.pid);
    const connectStarted = now();
    /** chatId → the reply's arrival on the first socket, for the send waiting on it. */
    const waiting = new Map();
    await inBatches(users, 10, async (user) => {
      await connectMany(app.base, { token: user.api.session.token }, socketsPerUser, user.sockets, 5);
      all.push(...user.sockets);
      for (const socket of user.sockets) {
        socket.on('message.created', (payload) => {
          if (payload?.message?.senderType !== 'agent') return;
          const id = payload.message.id;
          user.received.set(id, (user.received.get(id) ?? 0) + 1);
          waiting.get(payload.chatId)?.(now());
        });
      }
    });
    result.sockets = all.length;
    result.connectMs = Math.round(now() - connectStarted);
    result.rssConnectedKb = rssKb(app.pid);
    result.rssStartKb = rssStart;
    await eventLoopP99(metricsUrl); // starts the first window now

    const latencies = [];
    const loopP99s = [];
    const rss = [];
    /** Why sends failed: the POST's status ('409': a reply still pending), 'error', or 'no reply'. */
    const failures = {};
    const fail = (why) => (failures[why] = (failures[why] ?? 0) + 1);
    let sent = 0;
    const replies = [];
    const sendOne = async (user, i) => {
      const arrived = new Promise((resolve) => {
        const settle = (at) => {
          clearTimeout(timer);
          if (waiting.get(user.chatId) === settle) waiting.delete(user.chatId);
          resolve(at);
        };
        const timer = setTimeout(() => settle(null), CONFIG.replyTimeoutMs);
        waiting.set(user.chatId, settle);
      });
      const started = now();
      try {
        const res = await fetch(`${app.base}/api/chats/${user.chatId}/messages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${user.api.session.token}`,
            'x-company-id': user.api.session.companyId,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ content: `steady ${i}` }),
          signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
        });
        await res.text();
        if (res.status !== 201) {
          fail(String(res.status));
          waiting.delete(user.chatId);
          return;
        }
        user.accepted++;
      } catch (error) {
        fail(error instanceof Error && error.name === 'TimeoutError' ? 'POST timeout' : 'error');
        waiting.delete(user.chatId);
        return;
      }
      const at = await arrived;
      if (at === null) fail('no reply');
      else latencies.push(at - started);
    };

    const started = now();
    const sampler = setInterval(() => {
      rss.push(rssKb(app.pid));
      eventLoopP99(metricsUrl).then(
        (ms) => ms !== null && loopP99s.push(ms),
        () => undefined,
      );
    }, SAMPLE_EVERY_MS);
    onCleanup('steady sampler', () => clearInterval(sampler));
    const total = rate * seconds;
    for (let i = 0; i < total; i++) {
      // On schedule, not after the previous answer: a slow answer must not lower the rate.
      const due = started + (i * 1000) / rate;
      const wait = due - now();
      if (wait > 0) await delay(wait);
      sent++;
      replies.push(sendOne(users[i % users.length], i));
    }
    await Promise.all(replies);
    clearInterval(sampler);
    await delay(1000); // the last replies reach the other sockets of their user
    result.wallMs = Math.round(now() - started);
    result.sent = sent;
    result.failures = failures;
    result.failed = Object.values(failures).reduce((sum, n) => sum + n, 0);
    result.roundTrip = summarize(latencies);
    result.eventLoopP99Ms = loopP99s.length ? summarize(loopP99s) : null;
    result.rssKb = { max: Math.max(...rss), end: rssKb(app.pid) };
    // Every accepted message's reply must reach every socket of its user.
    let expected = 0;
    let delivered = 0;
    for (const user of users) {
      expected += user.accepted * socketsPerUser;
      for (const count of user.received.values()) delivered += Math.min(count, socketsPerUser);
    }
    result.deliveries = { expected, delivered, missing: expected - delivered };
    closeAll(all);
  },

  print(result) {
    console.log(
      `\nSteady load (${(result.sockets ?? 0).toLocaleString('en')} sockets, ${userCount} users × ${socketsPerUser}; goal: nothing dropped; round trip, event-loop delay and RSS reported)`,
    );
    if (!result.roundTrip) return console.log('  not measured');
    const loop = result.eventLoopP99Ms;
    console.log(
      table(
        ['figure', 'value'],
        [
          ['connect all sockets (ms)', String(result.connectMs)],
          [
            'messages sent / failed (why)',
            `${result.sent} / ${result.failed}${
              result.failed
                ? ` (${Object.entries(result.failures)
                    .map(([k, n]) => `${k}: ${n}`)
                    .join(', ')})`
                : ''
            }`,
          ],
          ['round trip p50 / p99 (ms)', `${fmt(result.roundTrip.p50)} / ${fmt(result.roundTrip.p99)}`],
          [
            'event-loop delay p99 per 5 s, median / worst (ms)',
            loop ? `${fmt(loop.p50)} / ${fmt(loop.max)}` : 'n/a',
          ],
          [
            'RSS start / connected / highest / end (MB)',
            [result.rssStartKb, result.rssConnectedKb, result.rssKb.max, result.rssKb.end]
              .map((kb) => fmt(kb / 1024))
              .join(' / '),
          ],
          [
            'replies delivered to sockets / expected (missing)',
            `${result.deliveries.delivered} / ${result.deliveries.expected} (${result.deliveries.missing})`,
          ],
        ],
      ),
    );
  },
};
