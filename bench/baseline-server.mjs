// The baseline: the least a chat server can do for one message. A bare Socket.IO server where a client's
// `message` event becomes one raw INSERT into PostgreSQL and a `message.created` event back. Runs as a
// child of bench/run.mjs (its own process, like the app), talks to it over IPC.
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
const httpServer = http.createServer();
const io = new Server(httpServer, { serveClient: false });

io.on('connection', (socket) => {
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
