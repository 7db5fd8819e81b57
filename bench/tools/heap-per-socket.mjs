// Where an idle authenticated socket's memory goes: starts the app (embedded PostgreSQL) with
// --heapsnapshot-signal, takes a heap snapshot with no sockets and one with N sockets of the bench user,
// and prints the constructors whose retained count and self size grew, per socket.
//   node bench/tools/heap-per-socket.mjs [N=2000] [top=30] [--bare: the bare Socket.IO server instead]
import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { signUp } from '../lib/clients.mjs';
import { cleanup } from '../lib/lifecycle.mjs';
import { startApp, startBaseline, startWebhook } from '../lib/servers.mjs';
import { closeAll, connectMany } from '../lib/sockets.mjs';
import { delay } from '../lib/util.mjs';

const n = Number(process.argv[2]) || 2000;
const top = Number(process.argv[3]) || 30;
const bare = process.argv.includes('--bare');
const dir = mkdtempSync(join(os.tmpdir(), 'heap-'));
process.env.BENCH_APP_NODE_ARGS = `${process.env.BENCH_APP_NODE_ARGS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`;

async function snapshot(pid) {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await delay(500);
    const added = readdirSync(dir).filter((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
    if (added.length) {
      const file = join(dir, added[0]);
      // Written while the app is blocked: read once it parses.
      for (let tries = 0; ; tries++) {
        await delay(1000);
        try {
          return summarise(JSON.parse(readFileSync(file, 'utf8')));
        } catch (error) {
          if (tries > 300) throw error;
        }
      }
    }
  }
  throw new Error('no heap snapshot');
}

function summarise(snap) {
  const {
    node_fields: fields,
    node_types: [types],
  } = snap.snapshot.meta;
  const width = fields.length;
  const iType = fields.indexOf('type');
  const iName = fields.indexOf('name');
  const iSize = fields.indexOf('self_size');
  const byName = new Map();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + iType]];
    const name =
      type === 'object' || type === 'closure'
        ? snap.strings[snap.nodes[i + iName]]
        : type === 'native'
          ? `(native) ${snap.strings[snap.nodes[i + iName]]}`
          : `(${type})`;
    const entry = byName.get(name) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += snap.nodes[i + iSize];
    byName.set(name, entry);
  }
  return byName;
}

const webhook = await startWebhook();
try {
  const app = await startApp(webhook.hostPort);
  const { api } = await signUp(app.base, webhook.url);
  let target = { pid: app.pid, url: app.base, auth: { token: api.session.token } };
  if (bare) {
    // The bare server is forked with this process's flags: NODE_OPTIONS carries the snapshot ones.
    process.env.NODE_OPTIONS = `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`;
    const server = await startBaseline(app.databaseUrl);
    delete process.env.NODE_OPTIONS;
    target = { pid: server.pid, url: server.url, auth: {} };
  }
  // A first socket warms every code path up.
  const warm = await connectMany(target.url, target.auth, 10, []);
  closeAll(warm);
  await delay(2000);
  const empty = await snapshot(target.pid);
  const sockets = await connectMany(target.url, target.auth, n, []);
  await delay(3000);
  const full = await snapshot(target.pid);
  closeAll(sockets);
  const rows = [];
  let total = 0;
  for (const [name, f] of full) {
    const e = empty.get(name) ?? { count: 0, size: 0 };
    const grew = f.size - e.size;
    total += grew;
    rows.push({ name, perSocketCount: (f.count - e.count) / n, perSocketBytes: grew / n });
  }
  rows.sort((a, b) => b.perSocketBytes - a.perSocketBytes);
  console.log(`heap growth per socket: ${(total / n / 1024).toFixed(2)} kB over ${n} sockets`);
  for (const r of rows.slice(0, top)) {
    console.log(
      `${r.perSocketBytes.toFixed(0).padStart(7)} B  ${r.perSocketCount.toFixed(2).padStart(6)} ×  ${r.name.slice(0, 90)}`,
    );
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
  process.exit();
}
