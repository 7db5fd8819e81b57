import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An id a client or proxy may choose: short, and nothing that could forge a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The incoming `X-Request-Id` when it is a sane token, else null (the caller makes one up). */
export function acceptRequestId(value: string | string[] | undefined): string | null {
  const candidate = Array.isArray(value) ? value[0] : value;
  return typeof candidate === 'string' && SANE_REQUEST_ID.test(candidate) ? candidate : null;
}

export function requestIdFor(value: string | string[] | undefined): string {
  return acceptRequestId(value) ?? randomUUID();
}

interface RequestContext {
  requestId?: string;
  /** The logger of the work in progress: its lines carry the request id (and a job's name and id). */
  logger?: Logger;
  /**
   * The root logger whose child bound to `loggerBindings` (by default the request id) becomes `logger`
   * when a line is first logged: most requests log nothing but their access line, and most jobs nothing
   * but their completion line, neither of which needs that child.
   */
  rootLogger?: Logger;
  loggerBindings?: Record<string, string>;
  /** A GET or HEAD: its answer can be revalidated by an ETag (If-None-Match). */
  revalidatable?: boolean;
}

/**
 * The work in progress: the HTTP request being answered, or a job (with the id of the request that
 * queued it). Jobs carry the request id in their data, webhook calls send it as `X-Request-Id`, and
 * `new Logger(...)` writes through the context's logger (see logger.ts).
 */
const context = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

export function currentLogger(): Logger | undefined {
  const store = context.getStore();
  if (store && !store.logger && store.rootLogger)
    store.logger = store.rootLogger.child(store.loggerBindings ?? { requestId: store.requestId });
  return store?.logger;
}

/** False only inside a request that no conditional request can revalidate (not a GET or HEAD). */
export function answerMayBeRevalidated(): boolean {
  return context.getStore()?.revalidatable ?? true;
}

export function runInRequestContext<T>(store: RequestContext, work: () => T): T {
  return context.run(store, work);
}

/** Where the access log leaves the root logger on a request, for bindRequestContext. */
export const REQUEST_ROOT_LOGGER = Symbol('requestRootLogger');

/**
 * Express middleware, mounted after the body parsers: a context entered before them is lost, because
 * the parsers continue the chain from the request stream's events, outside it. The access log (first
 * of all middleware) gave the request its id and the root logger its lines derive from.
 */
export function bindRequestContext(req: Request, _res: Response, next: NextFunction): void {
  const { id, [REQUEST_ROOT_LOGGER]: root } = req as Request & {
    id?: unknown;
    [REQUEST_ROOT_LOGGER]?: Logger;
  };
  const requestId = typeof id === 'string' ? id : undefined;
  runInRequestContext(
    {
      requestId,
      rootLogger: requestId === undefined ? undefined : root,
      revalidatable: req.method === 'GET' || req.method === 'HEAD',
    },
    next,
  );
}
