// Phase: memory per idle authenticated socket. CONFIG.memory.sockets Socket.IO connections to a fresh app
// (the bench user's access token: each is authenticated and in its user's, session's, company's rooms)
// against as many to a bare Socket.IO server; resident memory of each server process before and after.
import { CONFIG } from '../lib/config.mjs';
import { onCleanup } from '../lib/lifecycle.mjs';
import { fmt, table } from '../lib/output.mjs';
import { signUp } from '../lib/clients.mjs';
import { startApp, startBaseline } from '../lib/servers.mjs';
import { closeAll, connectMany, rssKb } from '../lib/sockets.mjs';
import { ratio } from '../lib/stats.mjs';
import { delay } from '../lib/util.mjs';

const { sockets: count, steps, settleMs } = CONFIG.memory;

/** RSS once the process has settled: the median of five samples. */
async function settledRss(pid) {
  await delay(settleMs);
  const samples = [];
  for (let i = 0; i < 5; i++) {
    samples.push(rssKb(pid));
    await delay(200);
  }
  return samples.sort((a, b) => a - b)[2];
}

/**
 * Connects `count` sockets in `steps` equal steps, with the settled RSS at each: kB per socket is the
 * least-squares slope through those points, so the step-wise growth of the V8 heap averages out
 * instead of landing on whichever side happened to cross a step.
 */
async function measureServer(url, auth, pid) {
  const sockets = [];
  onCleanup('memory sockets', () => closeAll(sockets));
  const points = [[0, await settledRss(pid)]];
  const started = performance.now();
  for (let step = 1; step <= steps; step++) {
    await connectMany(url, auth, count / steps, sockets);
    points.push([sockets.length, await settledRss(pid)]);
  }
  const connectMs = Math.round(performance.now() - started);
  closeAll(sockets);
  const mean = (f) => points.reduce((sum, p) => sum + f(p), 0) / points.length;
  const mx = mean((p) => p[0]);
  const my = mean((p) => p[1]);
  const slope = mean((p) => (p[0] - mx) * (p[1] - my)) / mean((p) => (p[0] - mx) ** 2);
  return {
    beforeKb: points[0][1],
    afterKb: points[points.length - 1][1],
    points,
    perSocketKb: Math.round(slope * 10) / 10,
    connectMs,
  };
}

export const memory = {
  key: 'memory',
  title: `Memory per idle socket: ${count.toLocaleString('en')} authenticated sockets vs a bare Socket.IO server`,

  async measure({ app, webhook }, result) {
    if (rssKb(process.pid) === null) {
      result.skipped = 'no /proc';
      return;
    }
    // A fresh app of its own, like the fresh bare server: the main app's heap holds what the other phases
    // left (garbage a collection during the steps would free, making the slope meaningless).
    const fresh = await startApp(webhook.hostPort);
    const { api } = await signUp(fresh.base, webhook.url);
    const bare = await startBaseline(app.databaseUrl);
    result.bare = await measureServer(bare.url, {}, bare.pid);
    result.switchboard = await measureServer(fresh.base, { token: api.session.token }, fresh.pid);
    result.ratio = ratio(result.switchboard.perSocketKb, result.bare.perSocketKb);
  },

  print(result) {
    console.log(
      `\nMemory per idle socket (RSS growth per socket, slope over ${steps} steps to ${count.toLocaleString('en')}; goal ≤ 1.2x)`,
    );
    if (result.skipped) return console.log(`  skipped: ${result.skipped}`);
    console.log(
      table(
        ['server', 'RSS before (MB)', 'RSS after (MB)', 'kB / socket', 'connect all (ms)'],
        ['bare', 'switchboard'].map((name) => {
          const r = result[name];
          return [
            name,
            fmt(r.beforeKb / 1024),
            fmt(r.afterKb / 1024),
            fmt(r.perSocketKb),
            String(r.connectMs),
          ];
        }),
      ),
    );
    console.log(`  ratio switchboard / bare: ${fmt(result.ratio)}x`);
  },
};
