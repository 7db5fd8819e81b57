// Where a process's JavaScript time goes, by package (or app file), with Node's own internals folded into
// the nearest package or app frame above them: `writev` under pg counts as pg's, the HTTP response's
// writes under compression as compression's. Start-up (module loading, migrations, Nest's bootstrap) and
// the socket-write syscalls themselves are left out: on a shared machine a write that wakes PostgreSQL or
// a client lets the scheduler run it first, and the profiler's wall clock then charges the writer.
// Compare two processes that did the same work (the app and the same path, with BENCH_APP_NODE_ARGS and
// BENCH_BASELINE_NODE_ARGS both set to `--cpu-prof --cpu-prof-dir=...`):
//   node bench/tools/profile-buckets.mjs A.cpuprofile [B.cpuprofile] [N]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const top = /^\d+$/.test(args.at(-1) ?? '') ? Number(args.pop()) : 40;
if (!args.length || args.length > 2) {
  console.error('usage: node bench/tools/profile-buckets.mjs <a.cpuprofile> [b.cpuprofile] [N]');
  process.exit(2);
}

const STARTUP =
  /^(compileSourceTextModule|wrapSafe|Module\._load|createApp|runMigrations|loadESM|importModuleDynamically)$/;
const SYSCALL_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String']);

function place(url) {
  if (!url) return null;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const app = /\/dist[^/]*\/(.+)$/.exec(url);
  if (app) return `app ${app[1]}`;
  const bench = /\/bench\/(.+)$/.exec(url);
  if (bench) return `bench ${bench[1]}`;
  return null;
}

function buckets(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byPlace = new Map();
  let busy = 0;
  let writes = 0;
  let startup = 0;
  for (const [id, us] of self) {
    const leaf = byId.get(id).callFrame.functionName;
    if (leaf === '(idle)' || leaf === '(program)') continue;
    let bucket = null;
    let atStartup = false;
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      bucket ??= place(frame.url);
      if (STARTUP.test(frame.functionName)) atStartup = true;
    }
    if (atStartup) startup += us;
    else if (SYSCALL_WRITES.has(leaf)) writes += us;
    else {
      bucket ??= leaf === '(garbage collector)' ? '(garbage collector)' : '(node, no package above)';
      busy += us;
      byPlace.set(bucket, (byPlace.get(bucket) ?? 0) + us);
    }
  }
  return { busy, writes, startup, byPlace };
}

const ms = (us) => (us / 1000).toFixed(0);
const results = args.map(buckets);
for (const [i, r] of results.entries())
  console.log(
    `${String.fromCharCode(65 + i)}: ${args[i]}\n   JavaScript ${ms(r.busy)} ms (left out: socket writes ${ms(r.writes)} ms, start-up ${ms(r.startup)} ms)`,
  );
const [a, b] = results;
const both = (name) => (a.byPlace.get(name) ?? 0) + (b?.byPlace.get(name) ?? 0);
const names = [...new Set([...a.byPlace.keys(), ...(b?.byPlace.keys() ?? [])])]
  .sort((x, y) => both(y) - both(x))
  .slice(0, top);
console.log(
  `\n${'A ms'.padStart(7)} ${'A %'.padStart(6)}${b ? `${'B ms'.padStart(8)} ${'B %'.padStart(6)}` : ''}  place`,
);
for (const name of names) {
  const cell = (r) => {
    const us = r.byPlace.get(name) ?? 0;
    return `${ms(us).padStart(7)} ${((us / r.busy) * 100).toFixed(1).padStart(5)}%`;
  };
  console.log(`${cell(a)}${b ? ` ${cell(b)}` : ''}  ${name}`);
}
