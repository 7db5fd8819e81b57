// Phase: fan-out. One event to N connected sockets, for N in CONFIG.fanOut.sizes: Switchboard's
// `company.updated` (PATCH /api/company renames the company; every socket of its members is in the
// company room: here N sockets of the bench user, who owns it) against a bare Socket.IO server's
// io.to(room).emit of the same event (POST /emit). Measured from sending the request until the first
// and the last socket has the event, the two systems taking turns trigger by trigger.
import { CONFIG } from '../lib/config.mjs';
import { onCleanup } from '../lib/lifecycle.mjs';
import { fmt, table } from '../lib/output.mjs';
import { startBaseline } from '../lib/servers.mjs';
import { arrivals, closeAll, connectMany, openFileLimit } from '../lib/sockets.mjs';
import { ratio, summarize } from '../lib/stats.mjs';

const { sizes, warmup, timeoutMs } = CONFIG.fanOut;
const triggersAt = (n) => (n >= CONFIG.fanOut.bigFrom ? CONFIG.fanOut.bigTriggers : CONFIG.fanOut.triggers);

export const fanOut = {
  key: 'fanOut',
  title: `Fan-out: one event to ${sizes.join(' / ')} sockets vs bare io.to(room).emit`,

  async measure({ app, api }, result) {
    const bare = await startBaseline(app.databaseUrl);
    const sockets = { bare: [], switchboard: [] };
    onCleanup('fan-out sockets', () => {
      closeAll(sockets.bare);
      closeAll(sockets.switchboard);
    });
    const events = arrivals('company.updated', (payload) => payload?.name);
    let seq = 0;
    const triggerOf = {
      async bare(n) {
        const name = `fan-out ${seq++}`;
        const arrived = events.expect(name, n, timeoutMs);
        const started = performance.now();
        const res = await fetch(`${bare.url}/emit?name=${encodeURIComponent(name)}`, { method: 'POST' });
        if (res.status !== 204) throw new Error(`bare /emit answered ${res.status}`);
        const { first, last } = await arrived;
        return { first: first - started, last: last - started };
      },
      async switchboard(n) {
        const name = `fan-out ${seq++}`;
        const arrived = events.expect(name, n, timeoutMs);
        const started = performance.now();
        await api.call('PATCH', '/api/company', { name }, 200);
        const { first, last } = await arrived;
        return { first: first - started, last: last - started };
      },
    };
    const connect = {
      bare: (n) => connectMany(bare.url, {}, n, sockets.bare),
      switchboard: (n) => connectMany(app.base, { token: api.session.token }, n, sockets.switchboard),
    };
    const systems = ['bare', 'switchboard'];
    const openFiles = openFileLimit();
    for (const n of sizes) {
      process.stdout.write(`  ${n} sockets`);
      const times = { bare: { first: [], last: [] }, switchboard: { first: [], last: [] } };
      // Both systems' clients live in this process: at 10,000 each they need more descriptors than a
      // usual limit (20,000 here, and a container may not raise it). Then each system is measured alone,
      // its sockets closed before the other's connect, instead of the two taking turns trigger by trigger.
      const together = 2 * n + 1_000 <= openFiles;
      const rounds = together ? [systems] : systems.map((system) => [system]);
      for (const round of rounds) {
        for (const system of round) {
          await connect[system](n - sockets[system].length);
          events.attach(sockets[system]);
        }
        for (let i = 0; i < warmup; i++) for (const system of round) await triggerOf[system](n);
        for (let i = 0; i < triggersAt(n); i++) {
          for (const system of i % 2 ? [...round].reverse() : round) {
            const t = await triggerOf[system](n);
            times[system].first.push(t.first);
            times[system].last.push(t.last);
            // BENCH_FANOUT_TRACE=1: every trigger's times, in order (to match against the app's own log).
            if (process.env.BENCH_FANOUT_TRACE)
              process.stdout.write(`\n    ${system} #${i}: first ${fmt(t.first)} last ${fmt(t.last)} ms`);
          }
        }
        if (!together) for (const system of round) closeAll(sockets[system]);
      }
      result[n] = { interleaved: together };
      for (const system of systems) {
        result[n][system] = { last: summarize(times[system].last), first: summarize(times[system].first) };
      }
      process.stdout.write(
        together ? ' done\n' : ` done (one system after the other: open files ${openFiles})\n`,
      );
    }
    // Every later event to the bench user would go to these sockets too.
    closeAll(sockets.bare);
    closeAll(sockets.switchboard);
  },

  print(result) {
    console.log(
      '\nFan-out: request → the last socket has the event, ms (ratio = switchboard / bare; goal p99 ≤ 1.5x)',
    );
    const rows = [];
    for (const n of sizes) {
      const r = result[n];
      if (!r) continue;
      for (const [label, pick] of [
        ['p50 last', (x) => x.last.p50],
        ['p99 last', (x) => x.last.p99],
        ['p50 first', (x) => x.first.p50],
        ['p50 last - first', (x) => x.last.p50 - x.first.p50],
      ]) {
        rows.push([
          `${n} sockets ${label}`,
          fmt(pick(r.bare)),
          fmt(pick(r.switchboard)),
          `${fmt(ratio(pick(r.switchboard), pick(r.bare)))}x`,
        ]);
      }
    }
    console.log(table(['metric', 'bare', 'switchboard', 'ratio'], rows));
    console.log(
      '  (switchboard: PATCH /api/company, auth and the UPDATE included; bare: POST /emit, the emit alone)',
    );
  },
};
