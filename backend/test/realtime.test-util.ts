import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { io, type Socket } from 'socket.io-client';
import { SocketServerRef } from '../src/realtime/socket-server.ref';

export interface EventLog {
  socket: Socket;
  events: Array<{ event: string; payload: unknown }>;
  /** Resolves with the first matching event (already received or yet to come). */
  waitFor<T = unknown>(event: string, match?: (payload: T) => boolean, timeoutMs?: number): Promise<T>;
  close(): void;
}

/**
 * A Socket.IO client as the browser makes it: access token (and, on a page's first connection, the
 * markers of what it loaded) in the handshake, every event recorded.
 */
export async function connectSocket(
  baseUrl: string,
  token: string,
  extra: { origin?: string; markers?: unknown } = {},
): Promise<EventLog> {
  const socket = io(baseUrl, {
    auth: extra.markers === undefined ? { token } : { token, markers: extra.markers },
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: extra.origin ? { origin: extra.origin } : undefined,
  });
  const events: EventLog['events'] = [];
  const waiters: Array<() => void> = [];
  socket.onAny((event: string, payload: unknown) => {
    events.push({ event, payload });
    for (const w of [...waiters]) w();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  // The server joins rooms right after the handshake: give it a tick.
  await new Promise((r) => setTimeout(r, 50));
  return {
    socket,
    events,
    waitFor<T>(event: string, match: (payload: T) => boolean = () => true, timeoutMs = 10_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const hit = events.find((e) => e.event === event && match(e.payload as T));
          if (hit) {
            clearTimeout(timer);
            waiters.splice(waiters.indexOf(check), 1);
            resolve(hit.payload as T);
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(check), 1);
          reject(
            new Error(`no ${event} within ${timeoutMs} ms; got ${events.map((e) => e.event).join(', ')}`),
          );
        }, timeoutMs);
        waiters.push(check);
        check();
      });
    },
    close: () => socket.close(),
  };
}

/**
 * The sockets a describe block's tests open, closed after each test: `const openSocket = useSockets();`
 * then `await openSocket(t.baseUrl, user.accessToken)` (as connectSocket).
 */
export function useSockets(): (
  baseUrl: string,
  token: string,
  extra?: Parameters<typeof connectSocket>[2],
) => Promise<EventLog> {
  const opened: EventLog[] = [];
  afterEach(() => {
    while (opened.length) opened.pop()?.close();
  });
  return async (baseUrl, token, extra) => {
    const log = await connectSocket(baseUrl, token, extra);
    opened.push(log);
    return log;
  };
}

/** The company rooms (`company:…`) an app's socket server has this client's socket in, sorted. */
export function companyRoomsOf(app: INestApplicationContext, log: EventLog): string[] {
  const socket = app.get(SocketServerRef).server?.sockets.sockets.get(log.socket.id as string);
  return [...(socket?.rooms ?? [])].filter((r) => r.startsWith('company:')).sort();
}

export interface FakeWebhook {
  url: string;
  hostPort: string;
  requests: Array<{ path: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A local agent webhook whose behaviour depends on the path: /ok, /500, /slow, /malformed, ... */
export async function startFakeWebhook(extra: Record<string, Behaviour> = {}): Promise<FakeWebhook> {
  const requests: FakeWebhook['requests'] = [];
  const behaviours: Record<string, Behaviour> = {
    '/ok': (_req, res, body) => {
      const { message } = JSON.parse(body) as { message: string };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ output: `pong: ${message}` }]));
    },
    '/500': (_req, res) => {
      res.writeHead(500);
      res.end('boom');
    },
    '/400': (_req, res) => {
      res.writeHead(400);
      res.end('bad');
    },
    '/malformed': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('this is not json');
    },
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([{ output: 'x'.repeat(5 * 1024 * 1024) }]));
    },
    '/redirect': (_req, res) => {
      res.writeHead(302, { location: '/ok' });
      res.end();
    },
    '/slow': (_req, res) => {
      setTimeout(() => {
        if (res.writableEnded || res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ output: 'finally' }]));
      }, 5_000).unref();
    },
    ...extra,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0];
      requests.push({ path, headers: req.headers, body });
      const behaviour = behaviours[path];
      if (behaviour) behaviour(req, res, body);
      else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
