// Phase: history loading, the claim that a chat with 10,000 messages opens as fast as one with 100. One
// INSERT fills each chat; the first page (what opening a chat fetches) is timed for both, interleaved.
import { CONFIG } from '../lib/config.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';
import { now } from '../lib/util.mjs';

const { bigChat, smallChat, pageSize } = CONFIG.history;

export const history = {
  key: 'history',
  title: `History: first page (limit ${pageSize}) of a ${bigChat.toLocaleString('en')}-message chat vs a ${smallChat}-message chat`,

  async measure({ api, db, userId, newChat }, result) {
    const { requests, warmup } = CONFIG.history;
    const bigChatId = await newChat('history 10k');
    const smallChatId = await newChat('history 100');
    const fill = async (chatId, count) => {
      const started = now();
      await db.query(
        `INSERT INTO messages (chat_id, sender_id, sender_type, content)
         SELECT $1, $2, 'user', 'history message ' || g FROM generate_series(1, $3::int) AS g`,
        [chatId, userId, count],
      );
      return Math.round(now() - started);
    };
    const bigInsertMs = await fill(bigChatId, bigChat);
    const smallInsertMs = await fill(smallChatId, smallChat);
    // Statistics as autovacuum would leave them, so the planner sees the table as it is.
    await db.query('ANALYZE messages');
    const pageOf = async (chatId) => {
      const started = now();
      const page = await api.call('GET', `/api/chats/${chatId}/messages?limit=${pageSize}`, undefined, 200);
      const ms = now() - started;
      if (page.messages.length !== pageSize || page.hasMore !== true) {
        throw new Error(`unexpected page: ${page.messages.length} messages, hasMore ${page.hasMore}`);
      }
      return ms;
    };
    for (let i = 0; i < warmup; i++) {
      await pageOf(smallChatId);
      await pageOf(bigChatId);
    }
    const smallTimes = [];
    const bigTimes = [];
    // Interleaved, so drift (GC, autovacuum, a noisy neighbour) hits both alike.
    for (let i = 0; i < requests; i++) {
      smallTimes.push(await pageOf(smallChatId));
      bigTimes.push(await pageOf(bigChatId));
    }
    // The ratio only means something if the big chat's page comes from the index, not from a scan and a
    // sort that happen to be cheap at this size: show the plan of the app's first-page query.
    const explainFirstPage = async (chatId) => {
      const { rows } = await db.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) SELECT m.id, m.seq::text AS seq, m.chat_id, m.sender_id, m.sender_type,
           m.content, m.is_voice_message, m.created_at
         FROM messages m WHERE m.chat_id = $1 AND ($2::bigint IS NULL OR m.seq < $2::bigint)
         ORDER BY m.seq DESC LIMIT $3`,
        [chatId, null, pageSize + 1],
      );
      const root = rows[0]['QUERY PLAN'][0];
      const steps = [];
      for (let node = root.Plan; node; node = node.Plans?.[0]) {
        steps.push(node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type']);
      }
      return { plan: steps.join(' > '), executionMs: root['Execution Time'] };
    };
    Object.assign(result, {
      small: { ...summarize(smallTimes), query: await explainFirstPage(smallChatId) },
      big: { ...summarize(bigTimes), query: await explainFirstPage(bigChatId) },
      bigInsertMs,
      smallInsertMs,
    });
    result.table = [
      ['first page p50 (ms)', result.small.p50, result.big.p50],
      ['first page p90 (ms)', result.small.p90, result.big.p90],
      ['first page p99 (ms)', result.small.p99, result.big.p99],
      ['first page mean (ms)', result.small.mean, result.big.mean],
    ].map(([metric, small, big]) => ({ metric, small, big, ratio: ratio(big, small) }));
  },

  print(result) {
    console.log(
      `\nHistory: ratio = ${bigChat.toLocaleString('en')}-message chat / ${smallChat}-message chat (≈1 is the claim)`,
    );
    console.log(
      table(
        ['metric', `${smallChat} msgs`, `${bigChat.toLocaleString('en')} msgs`, 'ratio'],
        result.table.map((r) => [r.metric, fmt(r.small), fmt(r.big), `${fmt(r.ratio)}x`]),
      ),
    );
    for (const [name, chat] of [
      [`${smallChat} msgs`, result.small],
      [`${bigChat.toLocaleString('en')} msgs`, result.big],
    ]) {
      console.log(`  ${name}: plan ${chat.query.plan}, ${fmt(chat.query.executionMs)} ms in PostgreSQL`);
    }
    console.log(
      `  (one-statement insert of ${bigChat} messages: ${result.bigInsertMs} ms; of ${smallChat}: ${result.smallInsertMs} ms)`,
    );
  },
};
