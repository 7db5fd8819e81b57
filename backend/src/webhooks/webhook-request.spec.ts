import net from 'node:net';
import { runInRequestContext } from '../logging/request-context';
import { ADDRESS_REFUSED } from './ssrf-guard';
import { postWebhook, type WebhookRequest } from './webhook-client';

const ANSWER = '[{"output":"ok"}]';

/**
 * A bare TCP server that keeps every request's bytes as they came on the wire and answers each with
 * `ANSWER`, keeping the connection open.
 */
async function recordingServer() {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let pending = '';
    socket.on('data', (data: Buffer) => {
      pending += data.toString('latin1');
      const headEnd = pending.indexOf('\r\n\r\n');
      if (headEnd === -1) return;
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(pending)?.[1] ?? 0);
      if (pending.length < headEnd + 4 + length) return;
      requests.push(pending.slice(0, headEnd + 4 + length));
      pending = pending.slice(headEnd + 4 + length);
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${ANSWER.length}\r\n\r\n${ANSWER}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The client's pooled connections stay open otherwise.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe('webhook requests', () => {
  let server: Awaited<ReturnType<typeof recordingServer>>;
  beforeAll(async () => {
    server = await recordingServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    jest.restoreAllMocks();
    server.requests.length = 0;
  });

  const request = (overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
    url: `http://127.0.0.1:${server.port}/agent/hook?tenant=7`,
    body: { message: 'héllo', messageId: 'm-1' },
    id: 'm-1_0',
    secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    timeoutMs: 5000,
    allowedHosts: new Set([`127.0.0.1:${server.port}`]),
    ...overrides,
  });

  it('sends the same bytes, headers in the same order, call after call on one connection', async () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_764_331_200_123);
    const req = request();
    const first = await runInRequestContext({ requestId: 'req-42' }, () => postWebhook(req));
    const second = await postWebhook({ ...req, secret: null });
    expect(first).toEqual({ kind: 'ok', status: 200, body: ANSWER });
    expect(second).toEqual({ kind: 'ok', status: 200, body: ANSWER });
    const body = '{"message":"héllo","messageId":"m-1"}';
    const head = (extra: string) =>
      'POST /agent/hook?tenant=7 HTTP/1.1\r\n' +
      'content-type: application/json\r\n' +
      'accept: application/json\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'user-agent: Switchboard-Webhook/1\r\n' +
      'webhook-id: m-1_0\r\n' +
      'webhook-timestamp: 1764331200\r\n' +
      extra +
      `Host: 127.0.0.1:${server.port}\r\n` +
      'Connection: keep-alive\r\n\r\n';
    expect(server.requests).toEqual([
      head('webhook-signature: v1,JiEWgkBaRWWcXlXVRRpArx6baNy+42k61+FeuWRUkBU=\r\nx-request-id: req-42\r\n') +
        Buffer.from(body).toString('latin1'),
      head('') + Buffer.from(body).toString('latin1'),
    ]);
  });

  it('checks a URL against the allow-list the call gives, however often it was called before', async () => {
    const url = `http://127.0.0.1:${server.port}/agent`;
    const allowed = new Set([`127.0.0.1:${server.port}`]);
    const none = new Set<string>();
    expect(await postWebhook(request({ url, allowedHosts: allowed }))).toMatchObject({ kind: 'ok' });
    // A loopback address, not allowed by this list: refused, before any connection.
    expect(await postWebhook(request({ url, allowedHosts: none }))).toEqual({
      kind: 'refused',
      message: ADDRESS_REFUSED,
    });
    expect(await postWebhook(request({ url, allowedHosts: none }))).toEqual({
      kind: 'refused',
      message: ADDRESS_REFUSED,
    });
    expect(await postWebhook(request({ url, allowedHosts: allowed }))).toMatchObject({ kind: 'ok' });
    expect(server.requests).toHaveLength(2);
  });
});
