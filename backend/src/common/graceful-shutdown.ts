import type { Server as HttpServer } from 'node:http';
import type { INestApplication, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { finishRunningJobs } from '../queue/finish-running-jobs';
import { SocketServerRef } from '../realtime/socket-server.ref';
import { settlesWithin } from './settles-within';

/** Set once a node starts shutting down: readiness answers 503, responses close their connection. */
export const lifecycle = { draining: false };

/**
 * The longest a SIGTERM takes, whatever is unreachable: then the process exits anyway. Below the usual
 * 30 s an orchestrator waits before SIGKILL (docker-compose.yml sets its stop_grace_period to 30 s).
 */
export const SHUTDOWN_LIMIT_MS = 25_000;

const IN_FLIGHT_GRACE_MS = 15_000;
/**
 * How long a draining node still takes requests, answering each with `Connection: close`: readiness is
 * 503 meanwhile (the balancer stops sending), and every keep-alive client learns not to reuse its
 * connection. Closing a kept-alive connection outright races a request the client is sending on it
 * ("other side closed"), which nobody can safely retry.
 */
const DRAIN_DELAY_MS = 2_000;

/**
 * HTTP requests the app is answering, counted by `trackRequestsInFlight` (the first middleware). Socket.IO's
 * connections are not among them: its WebSockets are upgraded connections that stay open as long as the tab,
 * and its long-polling requests are answered by engine.io before Express sees them.
 */
const requests = { inFlight: 0, onIdle: [] as (() => void)[] };

export function trackRequestsInFlight(_req: Request, res: Response, next: NextFunction): void {
  requests.inFlight++;
  res.once('close', () => {
    requests.inFlight--;
    if (requests.inFlight === 0) for (const resolve of requests.onIdle.splice(0)) resolve();
  });
  next();
}

/** Resolves once no HTTP request is being answered. */
export function requestsFinished(): Promise<void> {
  if (requests.inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => requests.onIdle.push(resolve));
}

/** While draining, a keep-alive client is told not to reuse this connection: its next request goes elsewhere. */
export function closeConnectionsWhileDraining(_req: Request, res: Response, next: NextFunction): void {
  if (lifecycle.draining) res.setHeader('Connection', 'close');
  next();
}

/**
 * SIGTERM for an api node, in order: readiness 503 and `Connection: close` for a moment, stop accepting
 * connections (a balancer's next try goes to another
 * node), let requests in flight finish and answer, send this node's sockets to reconnect (to another
 * node, through the balancer), let the jobs running in this process finish, then close the queue, the
 * database and the rest.
 */
export async function drainAndClose(app: INestApplication): Promise<void> {
  lifecycle.draining = true;
  await new Promise((resolve) => setTimeout(resolve, DRAIN_DELAY_MS));
  const http = app.getHttpServer() as HttpServer;
  http.close();
  http.closeIdleConnections();
  // The requests in flight, not the server's close: that waits for every connection, Socket.IO's WebSockets
  // included, which stay open until we close them below (every api shutdown with a browser connected took
  // the whole 15 s, and its sockets reconnected only then).
  const timer = new Promise<void>((resolve) => setTimeout(resolve, IN_FLIGHT_GRACE_MS).unref());
  await Promise.race([requestsFinished(), timer]);
  http.closeAllConnections();
  // Closing the transport (not `disconnect()`) makes Socket.IO clients reconnect by themselves.
  const io = app.get(SocketServerRef, { strict: false }).server;
  for (const socket of io?.sockets.sockets.values() ?? []) socket.conn.close();
  await finishRunningJobs(app);
  await app.close();
}

/**
 * Runs a process's shutdown (`close`), then exits: 0 when everything closed, 1 when something failed or
 * did not finish within SHUTDOWN_LIMIT_MS (Redis or PostgreSQL unreachable, say: what is still waiting
 * for them is abandoned, and a job cut off goes back to the queue when its lock expires).
 */
export async function closeWithinLimitAndExit(logger: Logger, close: () => Promise<void>): Promise<never> {
  let failed = false;
  const closing = close().catch((error: unknown) => {
    failed = true;
    logger.error(
      `Shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  });
  const finished = await settlesWithin(closing, SHUTDOWN_LIMIT_MS);
  if (!finished)
    logger.warn(
      `Shutdown not finished after ${SHUTDOWN_LIMIT_MS / 1000} s (something unreachable): exiting anyway`,
    );
  process.exit(finished && !failed ? 0 : 1);
}
