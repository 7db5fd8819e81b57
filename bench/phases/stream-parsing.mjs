// Phase: the CPU a streamed answer's parsing costs per MB. The NDJSON and SSE
// readers (backend/src/webhooks/stream-parsers.ts: webhook answers and streamed callbacks alike) are fed
// 256 KB and 1 MB in 256-byte chunks, as a slow agent sends them. Linear parsing costs the same per MB
// at both sizes (1 MB / 256 KB ≈ 4 in total); the old reader re-split its whole buffer on every chunk
// (≈ 16). Two shapes: one line with no end (what the finding measured: now refused once over 256 KB) and
// 128 KB lines (the longest lines read whole). In-process, no app: `BENCH_PHASES=streamParsing` runs it
// alone in a few seconds. `BENCH_STREAM_PARSERS=file.ts` measures another version of the file (the old
// one: `git show <commit>:backend/src/webhooks/stream-parsers.ts > /tmp/old.ts`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { table } from '../lib/output.mjs';

const KB = 1024;
const CHUNK = 256;
const SIZES = [256 * KB, 1024 * KB];
const SOURCE = fileURLToPath(new URL('../../backend/src/webhooks/stream-parsers.ts', import.meta.url));

/** The parsers' TypeScript, transpiled and loaded as it is now (no build needed). */
function loadParsers(file) {
  const require = createRequire(import.meta.url);
  const ts = require('typescript');
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-parsers-'));
  try {
    const out = path.join(dir, 'stream-parsers.cjs');
    writeFileSync(out, outputText);
    return require(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `size` bytes of the format: one line with no end, or lines of 128 KB. */
function body(format, shape, size) {
  const start = format === 'sse' ? 'data: ' : '{"type":"item","content":"';
  const end = format === 'sse' ? '\n\n' : '"}\n';
  if (shape === 'one line') return Buffer.from(start + 'x'.repeat(size - start.length));
  const line = start + 'x'.repeat(128 * KB - start.length - end.length) + end;
  return Buffer.from(line.repeat(Math.ceil(size / line.length)).slice(0, size));
}

function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CPU ms of one read of the body in 256-byte chunks: the least of a few runs (at most ~2 s spent). */
function measureRead(StreamReader, format, bytes) {
  const chunks = [];
  for (let from = 0; from < bytes.length; from += CHUNK) chunks.push(bytes.subarray(from, from + CHUNK));
  let best = Infinity;
  let spent = 0;
  for (let run = 0; run < 20 && (run < 3 || spent < 300) && spent < 2000; run++) {
    const started = cpuMs();
    const reader = new StreamReader(format);
    for (const chunk of chunks) reader.push(chunk);
    reader.end();
    const ms = cpuMs() - started;
    best = Math.min(best, ms);
    spent += ms;
  }
  return best;
}

export const streamParsing = {
  key: 'streamParsing',
  title: 'Stream parsing: CPU per MB of a streamed answer in 256-byte chunks (NDJSON, SSE), 256 KB vs 1 MB',
  /** Needs no app: run.mjs starts none when only such phases are asked for. */
  standalone: true,

  async measure(_ctx, result) {
    const file = process.env.BENCH_STREAM_PARSERS ?? SOURCE;
    const { StreamReader } = loadParsers(file);
    result.source = path.relative(process.cwd(), file);
    result.chunkBytes = CHUNK;
    result.rows = [];
    for (const format of ['ndjson', 'sse'])
      for (const shape of ['one line', '128 KB lines']) {
        const [small, large] = SIZES.map((size) =>
          measureRead(StreamReader, format, body(format, shape, size)),
        );
        result.rows.push({
          format,
          shape,
          ms256k: round(small),
          ms1m: round(large),
          msPerMb256k: round(small * 4),
          msPerMb1m: round(large),
          ratio: small > 0 ? round(large / small) : null,
        });
      }
  },

  print(result) {
    console.log(`\nStream parsing (${result.source}, ${result.chunkBytes}-byte chunks; linear: ratio ≈ 4)`);
    const rows = (result.rows ?? []).map((r) => [
      `${r.format}, ${r.shape}`,
      r.msPerMb256k,
      r.msPerMb1m,
      r.ratio ?? '-',
    ]);
    console.log(table(['path', 'CPU/MB at 256 KB (ms)', 'CPU/MB at 1 MB (ms)', '1 MB / 256 KB'], rows));
  },
};

function round(value) {
  return Math.round(value * 100) / 100;
}
