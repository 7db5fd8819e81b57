import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createFreshDatabase } from '../../test/app.test-util';
import { buildBackendOnce, freePort } from '../../test/processes.test-util';

// Two api nodes and a worker started at once on an empty database, as a scaled-out first start does:
// one of them migrates (a concurrent index build among the migrations) while the others wait for it.
// Every process must come up, and no index may be left invalid. Before the fix (waiters blocked in
// pg_advisory_lock while the index build waited for them), 7 starts in 10 hung for good.
const ROOT = resolve(__dirname, '..', '..', '..');
// 8 rather than 10: a round takes 6 to 10 s on 2 cores (three Nest processes booting at once), and 10
// rounds (81 s) went past this suite's share of the integration tier.
const ROUNDS = 8;
const READY_WITHIN_MS = 60_000;
const REDIS_URL = process.env.REDIS_URL;
const describeWithRedis = REDIS_URL ? describe : describe.skip;

interface Started {
  process: ChildProcess;
  log: () => string;
}

function spawnProcess(
  role: 'api' | 'worker',
  databaseUrl: string,
  port: number | null,
  prefix: string,
): Started {
  let log = '';
  const child = spawn(
    process.execPath,
    [join(ROOT, 'backend', 'dist', role === 'api' ? 'main.js' : 'worker.js')],
    {
      env: {
        ...process.env,
        PROCESS_ROLE: role,
        DATABASE_URL: databaseUrl,
        REDIS_URL,
        BULLMQ_PREFIX: prefix,
        ...(port ? { PORT: String(port) } : {}),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-concurrent-start-')),
        JWT_SECRET: 'concurrent-start-secret-that-is-long-enough',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  return { process: child, log: () => log };
}

async function waitUntil(
  check: () => Promise<boolean>,
  started: Started,
  deadline: number,
): Promise<boolean> {
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline || started.process.exitCode !== null) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function query<T extends object>(url: string, sql: string): Promise<T[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<T>(sql)).rows;
  } finally {
    await db.end();
  }
}

describeWithRedis('migrating an empty database', () => {
  beforeAll(() => buildBackendOnce(ROOT), 180_000);

  it(`2 api nodes and a worker started at once come up every time, with no invalid index (${ROUNDS} rounds)`, async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const db = await createFreshDatabase();
      const ports = [await freePort(), await freePort()];
      const prefix = `cstart${process.pid}r${round}`;
      const began = Date.now();
      const processes = [
        spawnProcess('api', db.url, ports[0], prefix),
        spawnProcess('api', db.url, ports[1], prefix),
        spawnProcess('worker', db.url, null, prefix),
      ];
      try {
        const deadline = began + READY_WITHIN_MS;
        const ready = await Promise.all([
          ...ports.map((port, i) =>
            waitUntil(
              () =>
                fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
                  (r) => r.ok,
                  () => false,
                ),
              processes[i],
              deadline,
            ),
          ),
          waitUntil(
            () => Promise.resolve(processes[2].log().includes('Worker started')),
            processes[2],
            deadline,
          ),
        ]);
        const seconds = ((Date.now() - began) / 1000).toFixed(1);
        if (ready.every(Boolean)) outcomes.push(`up in ${seconds} s`);
        else {
          const waits = await query<{ pid: number; wait_event: string | null; query: string }>(
            db.url,
            `SELECT pid, wait_event, left(query, 80) AS query FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()`,
          );
          outcomes.push(
            `NOT up after ${seconds} s (${ready.map((r) => (r ? 'ready' : 'stuck')).join(', ')}): ${JSON.stringify(waits)}`,
          );
          for (const [i, p] of processes.entries())
            if (!ready[i])
              process.stdout.write(
                `[concurrent start] round ${round}, process ${i}: ${p.log().slice(-1500)}\n`,
              );
        }
        const invalid = await query<{ index: string }>(
          db.url,
          'SELECT indexrelid::regclass::text AS index FROM pg_index WHERE NOT indisvalid',
        );
        if (invalid.length)
          outcomes.push(`round ${round}: invalid indexes ${invalid.map((r) => r.index).join(', ')}`);
      } finally {
        for (const p of processes) if (p.process.exitCode === null) p.process.kill('SIGKILL');
        await Promise.all(
          processes.map(
            (p) =>
              new Promise<void>((r) =>
                p.process.exitCode !== null ? r() : p.process.once('exit', () => r()),
              ),
          ),
        );
        await db.drop();
      }
    }
    process.stdout.write(`[concurrent start] ${outcomes.join('; ')}\n`);
    expect(outcomes.filter((o) => !o.startsWith('up in'))).toEqual([]);
  }, 600_000);

  it('`cli.js migrate` (npm run migrate) brings an empty database up to date, and again finds nothing to do', async () => {
    const db = await createFreshDatabase();
    const migrate = () =>
      new Promise<{ code: number | null; output: string }>((done) => {
        const child = execFile(
          process.execPath,
          [join(ROOT, 'backend', 'dist', 'cli.js'), 'migrate'],
          { env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn' } },
          (_error, stdout, stderr) => done({ code: child.exitCode, output: stdout + stderr }),
        );
      });
    try {
      for (let run = 0; run < 2; run++) {
        const { code, output } = await migrate();
        expect({ code, output: output.trim() }).toEqual({ code: 0, output: 'The database is up to date.' });
      }
      const pending = await query<{ n: string }>(db.url, 'SELECT count(*) AS n FROM migrations');
      expect(Number(pending[0].n)).toBeGreaterThan(0);
      expect(await query(db.url, 'SELECT indexrelid FROM pg_index WHERE NOT indisvalid')).toEqual([]);
    } finally {
      await db.drop();
    }
  }, 60_000);
});
