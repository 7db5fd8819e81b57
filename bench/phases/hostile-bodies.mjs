// Phase: what a hostile body costs the server. An 80 KB body of nested brackets (`[`×40000) once reached
// class-transformer, overflowed its stack (a 500) and cost ~80 ms of CPU per request, so eight clients
// could slow every other request down. It is now refused by a byte scan before parsing. The baseline is a
// flat body of the same size that validation refuses (an 80 KB company name), on the same endpoint.
import { CONFIG } from '../lib/config.mjs';
import { fmt, table } from '../lib/output.mjs';
import { ratio, summarize } from '../lib/stats.mjs';
import { now } from '../lib/util.mjs';

const PATH = '/api/companies';

export const hostileBodies = {
  key: 'hostileBodies',
  title: `Hostile bodies: ${CONFIG.hostileBodies.depth.toLocaleString('en')}-deep nested JSON vs a flat body of the same size (${PATH})`,

  async measure({ app, api }, result) {
    const { depth, requests, warmup } = CONFIG.hostileBodies;
    const nested = '['.repeat(depth) + ']'.repeat(depth);
    const statuses = new Set();
    const flat = JSON.stringify({ name: 'x'.repeat(nested.length - 11) });
    const post = async (body) => {
      const started = now();
      const res = await fetch(`${app.base}${PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${api.session.token}`,
        },
        body,
        signal: AbortSignal.timeout(CONFIG.requestTimeoutMs),
      });
      await res.text();
      const ms = now() - started;
      statuses.add(res.status);
      return ms;
    };
    for (let i = 0; i < warmup; i++) {
      await post(flat);
      await post(nested);
    }
    const flatTimes = [];
    const nestedTimes = [];
    for (let i = 0; i < requests; i++) {
      flatTimes.push(await post(flat));
      nestedTimes.push(await post(nested));
    }
    Object.assign(result, {
      bytes: nested.length,
      statuses: [...statuses],
      flat: summarize(flatTimes),
      nested: summarize(nestedTimes),
    });
    result.table = ['p50', 'p90', 'p99', 'mean'].map((m) => ({
      metric: `${m} (ms)`,
      flat: result.flat[m],
      nested: result.nested[m],
      ratio: ratio(result.nested[m], result.flat[m]),
    }));
  },

  print(result) {
    console.log(
      `\nHostile bodies: ratio = nested / flat, both ${result.bytes.toLocaleString('en')} bytes (≈1 is the claim)`,
    );
    console.log(
      table(
        ['metric', 'flat 400', 'nested 400', 'ratio'],
        result.table.map((r) => [r.metric, fmt(r.flat), fmt(r.nested), `${fmt(r.ratio)}x`]),
      ),
    );
    console.log(`  statuses seen: ${result.statuses.join(', ')} (400 expected for both)`);
  },
};
