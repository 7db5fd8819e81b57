// Summarises a V8 .cpuprofile (from BENCH_APP_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"): self time by
// function and by where the code lives (an npm package, a backend file, node's own, GC), top N of each.
//   node bench/tools/profile-top.mjs DIR/CPU.*.cpuprofile [N]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/tools/profile-top.mjs <file.cpuprofile> [N]');
  process.exit(2);
}
const top = Number(topArg) || 25;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
}

function where(url) {
  if (!url) return '(native/vm)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const app = /\/(dist[^/]*)\/(.+)$/.exec(url);
  if (app) return `app ${app[2]}`;
  return url;
}

const fn = new Map();
const place = new Map();
let total = 0;
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  const cf = node.callFrame;
  total += us;
  const w = cf.functionName.startsWith('(') ? cf.functionName : where(cf.url);
  const name = `${cf.functionName || '(anonymous)'} ${cf.url ? `${where(cf.url)}:${cf.lineNumber + 1}` : ''}`;
  fn.set(name, (fn.get(name) ?? 0) + us);
  place.set(w, (place.get(w) ?? 0) + us);
}
const idle = [...fn].filter(([k]) => k.startsWith('(idle)')).reduce((n, [, v]) => n + v, 0);
const busy = total - idle;
const show = (title, map) => {
  console.log(`\n${title} (self time, % of non-idle ${(busy / 1000).toFixed(0)} ms)`);
  for (const [k, v] of [...map]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(
      `${((v / busy) * 100).toFixed(1).padStart(5)}%  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`,
    );
};
show('By place', place);
show('By function', fn);
