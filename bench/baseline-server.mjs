// The floor: the least a chat server can do for one message. A bare Socket.IO server where a client's
// `message` event becomes one raw INSERT into PostgreSQL and a `message.created` event back. Also the
// bare fan-out and memory references: every socket joins one room, and `POST /emit?name=...` is one
// io.to(room).emit of a `company.updated` event. Runs as a child of bench/run.mjs (its own process,
// like the app), talks to it over IPC.
import http from 'node:http';
import pg from 'pg';
import { Server } from 'socket.io';

const databaseUrl = process.env.BASELINE_DATABASE_URL;
if (!databaseUrl || !process.send) {
  console.error('baseline-server.mjs is started by bench/run.mjs (needs BASELINE_DATABASE_URL and IPC)');
  process.exit(2);
}

// Same pool size as the app's (backend/src/database/data-source-options.ts), so concurrency is comparable.
const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: Number(process.env.BASELINE_POOL_SIZE) || 20,
});
// The fan-out reference: one emit to the room every socket is in.
const httpServer = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'POST' || url.pathname !== '/emit') {
    res.writeHead(404).end();
    return;
  }
  req.resume();
  io.to('everyone').emit('company.updated', { companyId: 'bare', name: url.searchParams.get('name') ?? '' });
  res.writeHead(204).end();
});
const io = new Server(httpServer, { serveClient: false });

io.on('connection', (socket) => {
  void socket.join('everyone');
  socket.on('message', (payload) => {
    const { chatId, content } = payload ?? {};
    pool
      .query('INSERT INTO bench_baseline (content) VALUES ($1) RETURNING id::text AS id, created_at', [
        String(content),
      ])
      .then(
        ({ rows }) => {
          socket.emit('message.created', {
            chatId,
            message: {
              id: rows[0].id,
              chatId,
              senderType: 'agent',
              content: 'ok',
              timestamp: rows[0].created_at,
            },
          });
        },
        (error) => socket.emit('message.failed', { chatId, reason: String(error) }),
      );
  });
});

httpServer.listen(0, '127.0.0.1', () => {
  process.send({ port: httpServer.address().port });
});

function shutdown() {
  io.close();
  pool.end().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on('disconnect', shutdown);
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
