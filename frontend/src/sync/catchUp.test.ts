import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SyncMarkers } from '../api/contracts';
import {
  catchUpPlan,
  fetchAndApply,
  offlineMarkers,
  setLive,
  takeLoadedWhileOffline,
  type SyncTopic,
} from './dispatch';
import { connectRealtime } from './realtimeSocket';

/** A socket.io client as far as realtimeSocket uses it: the test plays the server's side. */
class FakeSocket {
  handlers = new Map<string, Array<(payload?: unknown) => void>>();
  recovered = false;
  active = true;
  /** What each handshake carried, in order. */
  handshakes: unknown[] = [];
  constructor(private readonly auth: (cb: (data: unknown) => void) => void) {}
  on(name: string, handler: (payload?: unknown) => void) {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
    return this;
  }
  emit(name: string, payload?: unknown) {
    for (const handler of this.handlers.get(name) ?? []) handler(payload);
  }
  /** The client asks to connect; the test says when the server accepts (`accept`). */
  connect() {}
  /** A handshake the server accepts: the client's auth is read, then it is connected. */
  accept() {
    this.auth((data) => this.handshakes.push(data));
    this.emit('connect');
  }
  disconnect() {}
  removeAllListeners() {
    this.handlers.clear();
  }
}

const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: (options: { auth: (cb: (data: unknown) => void) => void }) => {
    const socket = new FakeSocket(options.auth);
    sockets.push(socket);
    return socket;
  },
}));

const CHAT: SyncMarkers = { chat: { companyId: 'c1', version: 'v1' } };

/** A load of `topic` while the socket is not up, its answer marked with `marker` (or not). */
const load = (topic: SyncTopic, marker?: SyncMarkers) =>
  fetchAndApply(
    () => Promise.resolve(topic),
    () => undefined,
    topic,
    marker && (() => marker),
  );

describe('catch-up plan on the first connection', () => {
  it('waits for the server on topics whose marker the handshake carried, reloads the rest now', () => {
    const loaded = new Map<SyncTopic, SyncMarkers | undefined>([
      ['chat', CHAT],
      ['appearance', { appearance: null }],
      ['admin', undefined],
    ]);
    const plan = catchUpPlan(loaded, { ...CHAT, appearance: null });
    expect(plan.reloadNow).toEqual(new Set(['admin']));
    expect(plan.answered).toEqual(new Set(['chat', 'appearance']));
  });

  it('reloads now a topic loaded without a marker, or marked after the handshake was sent', () => {
    const loaded = new Map<SyncTopic, SyncMarkers | undefined>([
      ['chat', { chat: { companyId: 'c1', version: 'v2' } }],
      ['appearance', undefined],
    ]);
    expect(catchUpPlan(loaded, { ...CHAT, appearance: '2024-01-01T00:00:00.000Z' }).reloadNow).toEqual(
      new Set(['chat', 'appearance']),
    );
    expect(catchUpPlan(new Map([['chat', CHAT]]), null).reloadNow).toEqual(new Set(['chat']));
  });
});

describe('markers of what was loaded while the socket was not up', () => {
  beforeEach(() => {
    setLive(false);
    takeLoadedWhileOffline();
  });

  it("keeps the marker of a topic's last load only", async () => {
    await load('chat', CHAT);
    await load('appearance', { appearance: null });
    expect(offlineMarkers()).toEqual({ ...CHAT, appearance: null });
    // The same topic again (another company opened before the socket came up), without a marker.
    await load('chat');
    expect(offlineMarkers()).toEqual({ appearance: null });
    expect(takeLoadedWhileOffline()).toEqual(
      new Map<SyncTopic, SyncMarkers | undefined>([
        ['chat', undefined],
        ['appearance', { appearance: null }],
      ]),
    );
    expect(offlineMarkers()).toBeNull();
  });

  it('lets no earlier load that answers late mark the topic', async () => {
    let answerFirst: (value: string) => void = () => undefined;
    const first = fetchAndApply(
      () => new Promise<string>((resolve) => (answerFirst = resolve)),
      () => undefined,
      'chat',
      () => CHAT,
    );
    await load('chat');
    answerFirst('late');
    await first;
    expect(offlineMarkers()).toBeNull();
  });

  it('records nothing for a load made while live', async () => {
    setLive(true);
    await load('chat', CHAT);
    expect(takeLoadedWhileOffline().size).toBe(0);
  });
});

describe('the socket on connecting: reloads what has no marker, and what the server names', () => {
  let resyncs: Array<Set<SyncTopic>>;
  let close: () => void;

  beforeEach(async () => {
    sockets.length = 0;
    resyncs = [];
    setLive(false);
    takeLoadedWhileOffline();
    await load('chat', CHAT);
    await load('appearance', { appearance: null });
    await load('admin');
    close = connectRealtime({
      onEvent: () => undefined,
      onResync: (topics) => resyncs.push(new Set(topics)),
      onSessionRevoked: () => undefined,
    });
    await vi.waitFor(() => expect(sockets).toHaveLength(1));
  });
  afterEach(() => close());

  it('sends the markers, reloads only the unmarked topic, then what sync.stale names', () => {
    const socket = sockets[0];
    socket.accept();
    expect(socket.handshakes).toEqual([{ token: '', markers: { ...CHAT, appearance: null } }]);
    expect(resyncs).toEqual([new Set(['admin'])]);
    socket.emit('sync.stale', { topics: ['chat'] });
    expect(resyncs).toEqual([new Set(['admin']), new Set(['chat'])]);
  });

  it('reloads nothing more when the server names nothing', () => {
    const socket = sockets[0];
    socket.accept();
    expect(resyncs).toEqual([new Set(['admin'])]);
  });

  it('after a reconnect sends no markers and reloads every topic, whatever sync.stale says', () => {
    const socket = sockets[0];
    socket.accept();
    socket.emit('disconnect');
    socket.accept();
    expect(socket.handshakes[1]).toEqual({ token: '' });
    expect(resyncs.at(-1)).toEqual(new Set(['chat', 'admin', 'appearance']));
    const count = resyncs.length;
    socket.emit('sync.stale', { topics: ['chat'] });
    expect(resyncs).toHaveLength(count);
  });
});
