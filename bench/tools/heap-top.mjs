// Reads a sampling heap profile written by lib/heap-sampler.cjs (garbage included): bytes allocated by
// package (the nearest package or app file above the allocation), by the deepest app function on the
// stack (whose work made it), and by allocating function.
//   node bench/tools/heap-top.mjs FILE.heapprofile [N]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/tools/heap-top.mjs <file.heapprofile> [N]');
  process.exit(2);
}
const top = Number(topArg) || 25;
const profile = JSON.parse(readFileSync(file, 'utf8'));

const packageOf = (url) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? null;
const appFileOf = (url) =>
  !url || url.includes('node_modules') ? null : (/\/dist[^/]*\/(.+)$/.exec(url)?.[1] ?? null);
const label = (frame) =>
  `${frame.functionName || '(anonymous)'} ${packageOf(frame.url) ?? appFileOf(frame.url) ?? frame.url}:${frame.lineNumber + 1}`;

const byPlace = new Map();
const byAppFunction = new Map();
const byAllocator = new Map();
const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
let total = 0;

function walk(node, stack) {
  const frames = [...stack, node.callFrame];
  if (node.selfSize) {
    total += node.selfSize;
    let place = null;
    let appFunction = null;
    for (let i = frames.length - 1; i >= 0 && !(place && appFunction); i--) {
      const { url } = frames[i];
      place ??= packageOf(url) ?? (appFileOf(url) ? `app ${appFileOf(url)}` : null);
      if (!appFunction && appFileOf(url)) appFunction = label(frames[i]);
    }
    add(byPlace, place ?? '(node or V8, no package above)', node.selfSize);
    add(byAppFunction, appFunction ?? '(no app function on the stack)', node.selfSize);
    add(byAllocator, label(node.callFrame), node.selfSize);
  }
  for (const child of node.children ?? []) walk(child, frames);
}
walk(profile.head, []);

const show = (title, map) => {
  console.log(`\n${title} (of ${(total / 1048576).toFixed(0)} MB sampled)`);
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `${((bytes / total) * 100).toFixed(1).padStart(5)}%  ${(bytes / 1048576).toFixed(1).padStart(6)} MB  ${key}`,
    );
};
show('By place', byPlace);
show('By the deepest app function on the stack', byAppFunction);
show('By allocating function', byAllocator);
