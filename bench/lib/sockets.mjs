// Many Socket.IO clients at once (fan-out and memory phases), and RSS from /proc.
import { readFileSync } from 'node:fs';
import { io } from 'socket.io-client';
import { withTimeout } from './util.mjs';

function connectOne(url, auth) {
  const socket = io(url, {
    auth,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 20_000,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(new Error(`socket connect to ${url}: ${error.message}`));
    });
  });
}

/**
 * `count` more sockets to `url` (`concurrency` handshakes at a time), appended to `sockets`: a failed
 * run closes what it opened through the caller's cleanup of `sockets`.
 */
export async function connectMany(url, auth, count, sockets, concurrency = 25) {
  let left = count;
  const worker = async () => {
    while (left > 0) {
      left--;
      sockets.push(await connectOne(url, auth));
    }
  };
  await withTimeout(
    Promise.all(Array.from({ length: concurrency }, worker)),
    120_000,
    `connecting ${count} sockets to ${url}`,
  );
  return sockets;
}

export function closeAll(sockets) {
  for (const socket of sockets.splice(0)) socket.close();
}

/**
 * Tracks one event on many sockets: `expect(key, n)` resolves with the arrival times of the first and
 * the last of `n` sockets that got the event whose `keyOf(payload)` is `key`.
 */
export function arrivals(event, keyOf) {
  const waiting = new Map();
  const listener = (payload) => {
    const w = waiting.get(keyOf(payload));
    if (!w) return;
    const at = performance.now();
    w.first ??= at;
    if (++w.seen === w.n) {
      waiting.delete(keyOf(payload));
      clearTimeout(w.timer);
      w.resolve({ first: w.first, last: at });
    }
  };
  return {
    attach(sockets) {
      for (const socket of sockets) if (!socket.hasListeners(event)) socket.on(event, listener);
    },
    expect(key, n, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const w = waiting.get(key);
          waiting.delete(key);
          reject(new Error(`${event} '${key}': ${w?.seen ?? 0} of ${n} sockets within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(key, { n, seen: 0, first: null, resolve, timer });
      });
    },
  };
}

/** Resident memory of a process (kB), from /proc; null elsewhere. */
export function rssKb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** This process's soft limit of open files (each socket is one). */
export function openFileLimit() {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const soft = line?.split(/\s{2,}/)[1];
  return soft === undefined || soft === 'unlimited' ? Infinity : Number(soft);
}
