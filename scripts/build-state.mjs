#!/usr/bin/env node
// Knows whether the last build is still the build of the sources here, so `npm start` rebuilds only
// when something changed (a restart then takes seconds).
//   node scripts/build-state.mjs write   → records the sources' fingerprint (after a build)
//   node scripts/build-state.mjs check   → exit 0 when the build is current, 1 when it must be rebuilt
// The fingerprint covers every file that goes into the build (path, size, modification time).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'backend', 'dist', '.build-fingerprint');
const INPUTS = [
  'frontend/src',
  'frontend/public',
  'frontend/index.html',
  'frontend/vite.config.ts',
  'frontend/tsconfig.json',
  'frontend/package.json',
  // The in-app help pages render these (frontend/src/pages/WebhookSignaturesPage.tsx).
  'docs',
  'backend/src',
  'backend/tsconfig.json',
  'backend/tsconfig.build.json',
  'backend/package.json',
  'nest-cli.json',
  'package-lock.json',
];
const OUTPUTS = ['frontend/dist/index.html', 'backend/dist/main.js'];

function* files(entry) {
  const full = path.join(root, entry);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) yield* files(path.join(entry, name));
  } else if (stat.isFile()) {
    yield `${entry}\0${stat.size}\0${stat.mtimeMs}`;
  }
}

function fingerprint() {
  const hash = createHash('sha256');
  for (const entry of INPUTS) for (const line of files(entry)) hash.update(`${line}\n`);
  return hash.digest('hex');
}

const command = process.argv[2];
if (command === 'write') {
  fs.mkdirSync(path.dirname(STAMP), { recursive: true });
  fs.writeFileSync(STAMP, `${fingerprint()}\n`);
} else if (command === 'check') {
  const built = OUTPUTS.every((output) => fs.existsSync(path.join(root, output)));
  const stamp = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
  process.exit(built && stamp === fingerprint() ? 0 : 1);
} else {
  console.error('usage: node scripts/build-state.mjs write|check');
  process.exit(2);
}
