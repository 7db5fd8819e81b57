import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { accessLog, createLogger } from './logger';
import { bindRequestContext, currentLogger } from './request-context';

/** An http server behind the access log, its lines collected as parsed JSON. */
async function serverWith(handler: http.RequestListener) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = accessLog(createLogger('debug', sink));
  // As the app mounts them: the access log first, the request's context after the body parsers.
  const server = http.createServer((req, res) =>
    log(req, res, () =>
      bindRequestContext(req as Parameters<typeof bindRequestContext>[0], res as never, () =>
        handler(req, res),
      ),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, lines, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Lines are written when the response ends, which can be just after the client has it. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('access log', () => {
  it('writes one line per request with its id, at the level its outcome calls for', async () => {
    const server = await serverWith((req, res) => {
      if (req.url === '/api/boom') res.statusCode = 503;
      res.end('{}');
    });
    try {
      const ok = await fetch(`${server.base}/api/chats?token=secret`, {
        headers: { 'x-request-id': 'abc-1' },
      });
      expect(ok.headers.get('x-request-id')).toBe('abc-1');
      await fetch(`${server.base}/api/boom`);
      await fetch(`${server.base}/api/health/live`);
      await until(() => server.lines.length === 3);
      // Any second line of a response (its 'finish' and then its 'close') would be in by now.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.lines).toEqual([
        expect.objectContaining({
          level: 'info',
          requestId: 'abc-1',
          method: 'GET',
          path: '/api/chats',
          status: 200,
          msg: 'GET /api/chats 200',
        }),
        expect.objectContaining({
          level: 'error',
          status: 503,
          err: 'failed with status code 503',
          msg: 'GET /api/boom 503',
        }),
        expect.objectContaining({ level: 'debug', path: '/api/health/live' }),
      ]);
      expect(typeof server.lines[0].durationMs).toBe('number');
      expect(server.lines[1].requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(server.lines)).not.toContain('secret');
    } finally {
      await server.close();
    }
  });

  it('marks a response the client walked away from as aborted', async () => {
    let answered!: () => void;
    const gone = new Promise<void>((resolve) => (answered = resolve));
    const server = await serverWith((_req, res) => {
      res.on('close', () => answered());
    });
    try {
      const controller = new AbortController();
      const request = fetch(`${server.base}/api/slow`, { signal: controller.signal }).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      await request;
      await gone;
      await until(() => server.lines.length === 1);
      expect(server.lines).toEqual([expect.objectContaining({ path: '/api/slow', aborted: true })]);
    } finally {
      await server.close();
    }
  });

  it('redacts secrets in any other line logged while answering, which carries the request id', async () => {
    const server = await serverWith((req, res) => {
      currentLogger()?.info(
        { headers: { authorization: 'Bearer s3cret-a', accept: 'text/plain' }, user: { token: 's3cret-b' } },
        'answering',
      );
      res.end('{}');
    });
    try {
      await fetch(`${server.base}/api/things`, { headers: { 'x-request-id': 'abc-2' } });
      await until(() => server.lines.length === 2);
      expect(server.lines).toEqual([
        expect.objectContaining({
          requestId: 'abc-2',
          headers: { authorization: '[redacted]', accept: 'text/plain' },
          user: { token: '[redacted]' },
          msg: 'answering',
        }),
        expect.objectContaining({ requestId: 'abc-2', path: '/api/things', status: 200 }),
      ]);
      // The request id comes right after the process's bindings in both lines, as a child's binding does.
      for (const line of server.lines)
        expect(Object.keys(line).slice(2, 5)).toEqual(['pid', 'hostname', 'requestId']);
    } finally {
      await server.close();
    }
  });
});
