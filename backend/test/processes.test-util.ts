import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import {
  Agent as HttpAgent,
  createServer as createHttpServer,
  get as httpGet,
  request as httpRequest,
} from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/common/free-port';

export { freePort };

/** The machine's redis-server, for suites that stop and start a Redis of their own (skipped without one). */
export const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) =>
  existsSync(p),
);
export const describeWithRedisServer = REDIS_SERVER ? describe : describe.skip;

export interface RedisServer {
  url: string;
  /** Stops the server (SIGKILL: what it had in memory is gone, as after a crash without persistence). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/**
 * A redis-server of the test's own on a free loopback port, without persistence: fault tests stop and
 * start it, never the machine's shared Redis.
 */
export async function startRedisServer(binary: string): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const proc = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'no',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
      proc.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  };
  const stop = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}

export interface PostgresServer {
  url: string;
  /** Immediate shutdown (like a crash): connections drop, the server is gone until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its data directory. */
  destroy(): Promise<void>;
}

/** The machine's PostgreSQL binaries (Debian's layout), newest first; null when there are none. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

function asPostgres(command: string): void {
  // initdb and postgres refuse to run as root: run them as the postgres user when we are root.
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  execFileSync(root ? 'su' : 'sh', root ? ['postgres', '-s', '/bin/sh', '-c', command] : ['-c', command], {
    stdio: 'ignore',
  });
}

/**
 * A PostgreSQL of the test's own (initdb in a temporary directory, trust auth, a free loopback port):
 * fault tests stop and start it, never the machine's shared server.
 */
export async function startPostgresServer(binDir: string): Promise<PostgresServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sb-fault-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  asPostgres(`${binDir}/initdb -D ${data} -A trust -U postgres >/dev/null`);
  const ctl = (args: string) => asPostgres(`${binDir}/pg_ctl -D ${data} ${args}`);
  const start = () => {
    ctl(`-w -l ${dir}/log -o "-p ${port} -k ${dir} -c listen_addresses=127.0.0.1" start`);
    return Promise.resolve();
  };
  const stop = () => {
    ctl('-m immediate stop');
    return Promise.resolve();
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: async () => {
      try {
        await stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Balancer {
  url: string;
  /** Requests that reached no node (every node down or refusing). */
  failures: number;
  close(): Promise<void>;
}

/**
 * A small round-robin HTTP balancer in front of api nodes, as a load balancer does it: it checks each
 * node's readiness every 250 ms and sends requests only to ready nodes; a connection a node refuses is
 * tried on the next one (no byte of the request reached the refusing node).
 */
export async function startBalancer(upstreams: string[]): Promise<Balancer> {
  const ready = new Map(upstreams.map((u) => [u, true]));
  const agent = new HttpAgent({ keepAlive: true });
  const check = setInterval(() => {
    for (const upstream of upstreams) {
      httpGet(`${upstream}/api/health/ready`, { agent }, (res) => {
        ready.set(upstream, res.statusCode === 200);
        res.resume();
      }).on('error', () => ready.set(upstream, false));
    }
  }, 250);
  let next = 0;
  const state = { failures: 0 };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const candidates = upstreams.filter((u) => ready.get(u));
      const attempt = (tries: number) => {
        if (tries >= candidates.length) {
          state.failures++;
          res.writeHead(502).end('no node answered');
          return;
        }
        const upstream = candidates[(next++ + tries) % candidates.length];
        const proxied = httpRequest(
          `${upstream}${req.url ?? '/'}`,
          { method: req.method, headers: { ...req.headers, host: new URL(upstream).host }, agent },
          (upstreamRes) => {
            res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
            upstreamRes.pipe(res);
          },
        );
        proxied.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ECONNREFUSED') {
            ready.set(upstream, false);
            attempt(tries + 1);
          } else if (!res.headersSent) {
            state.failures++;
            res.writeHead(502).end(`${error.code ?? ''} ${error.message}`);
          }
        });
        proxied.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get failures() {
      return state.failures;
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(check);
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `nest build` once per test run (suites that start the built api or worker as processes share it):
 * jest runs the suites in one process, so the environment remembers it.
 */
export function buildBackendOnce(root: string): void {
  if (process.env.SWITCHBOARD_TEST_BUILT === '1') return;
  execFileSync('npx', ['nest', 'build'], { cwd: root, stdio: 'ignore' });
  process.env.SWITCHBOARD_TEST_BUILT = '1';
}
