// Phase: a regenerate's round trip next to a first reply's, in Switchboard alone: from the request
// (POST /api/messages/:id/regenerate, or POST /api/chats/:id/messages) to the agent's reply event on the
// socket. One chat each, one request at a time, the two taking turns block by block. The goal: a
// regenerate within 1.1x of a first reply (it moves the shown reply to its versions first, in the
// same transaction that asks again).
import { connectSocket, replyRouter } from '../lib/clients.mjs';
import { CONFIG } from '../lib/config.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';
import { now } from '../lib/util.mjs';

const { warmup, total, blocks } = CONFIG.regenerate;

export const regenerate = {
  key: 'regenerate',
  title: 'Regenerate round trip (regenerate → the new reply on the socket) next to a first reply:',

  async measure(ctx, result) {
    const { app, api, newChat } = ctx;
    const socket = await connectSocket(app.base, { token: api.session.token });
    const replies = replyRouter(socket, ['agent.reply_failed']);
    const headers = {
      authorization: `Bearer ${api.session.token}`,
      'x-company-id': api.session.companyId,
      'content-type': 'application/json',
    };
    /** One request, then its reply on the socket: the round trip in ms. */
    const roundTrip = async (chatId, path, body, expected) => {
      const reply = replies.wait(chatId, CONFIG.replyTimeoutMs);
      const started = now();
      const res = await fetch(`${app.base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
      });
      const text = await res.text();
      if (res.status !== expected) {
        replies.cancel(chatId);
        await reply.catch(() => undefined);
        throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      }
      return { at: (await reply) - started, body: JSON.parse(text) };
    };

    const firstChat = await newChat('bench first replies');
    const regenChat = await newChat('bench regenerates');
    const first = (i) =>
      roundTrip(firstChat, `/api/chats/${firstChat}/messages`, { content: `first ${i}` }, 201);
    const opening = await roundTrip(regenChat, `/api/chats/${regenChat}/messages`, { content: 'again' }, 201);
    const messageId = opening.body.id;
    const again = () => roundTrip(regenChat, `/api/messages/${messageId}/regenerate`, {}, 200);

    for (let i = 0; i < warmup; i++) {
      await first(i);
      await again();
    }
    const samples = { first: [], regenerate: [] };
    const wall = { first: 0, regenerate: 0 };
    const size = Math.ceil(total / blocks);
    const runs = {
      first: async (n) => {
        for (let i = 0; i < n; i++) samples.first.push((await first(i)).at);
      },
      regenerate: async (n) => {
        for (let i = 0; i < n; i++) samples.regenerate.push((await again()).at);
      },
    };
    for (let block = 0, done = 0; done < total; block++, done += size) {
      const order = block % 2 === 0 ? ['first', 'regenerate'] : ['regenerate', 'first'];
      for (const kind of order) {
        const started = now();
        await runs[kind](Math.min(size, total - done));
        wall[kind] += now() - started;
      }
    }
    socket.close();
    result.first = summarize(samples.first, wall.first);
    result.regenerate = summarize(samples.regenerate, wall.regenerate);
    result.ratio = {
      p50: ratio(result.regenerate.p50, result.first.p50),
      p90: ratio(result.regenerate.p90, result.first.p90),
      mean: ratio(result.regenerate.mean, result.first.mean),
    };
  },

  print(result) {
    console.log('\nRegenerate round trip vs a first reply (the goal: ≤ 1.1x), ms');
    console.log(
      table(
        ['metric', 'first reply', 'regenerate', 'regenerate/first'],
        ['p50', 'p90', 'mean'].map((key) => [
          key,
          fmt(result.first[key]),
          fmt(result.regenerate[key]),
          `${fmt(result.ratio[key])}x`,
        ]),
      ),
    );
  },
};
