import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger as NestLogger } from '@nestjs/common';
import { Logger as PinoNestLogger, PinoLogger } from 'nestjs-pino';
import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';
import type { AuthUser } from '../common/current-user.decorator';
import type { LogLevel } from '../config/app-config';
import { currentLogger, REQUEST_ID_HEADER, REQUEST_ROOT_LOGGER, requestIdFor } from './request-context';

export type RootLogger = Logger;

/**
 * Never written, whoever logs an object holding them: credentials in headers, cookies and bodies
 * (bodies are not logged at all; this is the net under that rule).
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  ...['password', 'currentPassword', 'newPassword', 'passwordHash', 'token', 'accessToken', 'refreshToken']
    .map((key) => [key, `*.${key}`])
    .flat(),
];

const REDACTED = '[redacted]';

/**
 * The process's one pino logger: JSON lines on stdout (or `destination`), ISO times, level names, no
 * colours whatever stdout is. `silent` is for test apps.
 */
export function createLogger(level: LogLevel | 'silent', destination?: DestinationStream): RootLogger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

const unredacted = new WeakMap<RootLogger, RootLogger>();

/**
 * A child of the root logger without its redaction, for lines made only of our own fields (the access
 * line, a job's completion line): pino runs every value of a redacting logger's line through the
 * redaction, which copies and re-serialises it even when it is a plain string. Made once per root.
 */
export function unredactedLogger(root: RootLogger): RootLogger {
  let logger = unredacted.get(root);
  if (!logger) unredacted.set(root, (logger = root.child({}, { redact: { paths: [], censor: REDACTED } })));
  return logger;
}

/** Nest's own start-up chatter (a line per module and per route): only at LOG_LEVEL=debug. */
const START_UP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'WebSocketsController',
  'NestApplication',
]);

/**
 * nestjs-pino's PinoLogger, writing through the logger of the request or job in progress (its request
 * id, job name and id on every line), else through this application's root logger. nestjs-pino's own
 * per-request binding is not used: its middleware registers as a catch-all route on every HTTP method,
 * and its fallback logger is one per process, not per application.
 */
class ContextPinoLogger extends PinoLogger {
  constructor(private readonly base: RootLogger) {
    super({ pinoHttp: { logger: base } });
  }

  override get logger(): RootLogger {
    return currentLogger() ?? this.base;
  }
}

/**
 * What `new Logger(...)` of @nestjs/common writes through once the app calls `useLogger`: nestjs-pino's
 * Logger on the context's logger, minus the start-up chatter.
 */
export class AppLogger extends PinoNestLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context))
      return super.debug(message, ...optionalParams);
    super.log(message, ...optionalParams);
  }
}

export function appLoggerFor(root: RootLogger): AppLogger {
  return new AppLogger(new ContextPinoLogger(root), {});
}

/**
 * Sends Nest's static logger (every `new Logger(...)`) to JSON at once, before an application exists:
 * the embedded database and migrations log before Nest starts.
 */
export function useJsonLogs(root: RootLogger): void {
  NestLogger.overrideLogger(appLoggerFor(root));
}

type HttpRequest = IncomingMessage & { originalUrl?: string; user?: AuthUser };

/** The path without its query string: `?token=...` links (invitations, resets) carry credentials. */
export function accessPath(req: HttpRequest): string {
  const url = req.originalUrl ?? req.url ?? '';
  const path = url.split('?')[0];
  return path.length > 300 ? `${path.slice(0, 300)}…` : path;
}

/** Probes, scrapers and the queue dashboard's polling: below `info`, so they do not drown the rest. */
const QUIET_PATHS = /^\/(api\/health(\/|$)|metrics$|api\/admin\/queues\/(api|static)\/)/;

function accessLevel(
  req: HttpRequest,
  res: ServerResponse,
  path: string,
  error?: Error,
): Exclude<LevelWithSilent, 'silent'> {
  if (error || res.statusCode >= 500) return 'error';
  if (req.method === 'GET' && QUIET_PATHS.test(path)) return 'debug';
  return 'info';
}

function accessFields(
  requestId: string,
  req: HttpRequest,
  res: ServerResponse,
  path: string,
  durationMs: number,
): Record<string, unknown> {
  return {
    requestId,
    method: req.method,
    path,
    status: res.statusCode,
    durationMs,
    ...(req.user ? { userId: req.user.id } : {}),
    ...(res.writableEnded ? {} : { aborted: true }),
  };
}

/**
 * The access log, mounted before any other middleware: it gives each request its id (a sane incoming
 * `X-Request-Id`, else a new UUID), echoes it in the response, binds it to every line logged while the
 * request is answered, and writes one line when the response is done. No headers, no bodies, no query.
 *
 * Not pino-http: besides the request's logger it builds a second child logger per request with the
 * whole request serialised into it (its headers copied and run through the redaction), which nothing
 * here writes: about a tenth of the CPU of a small API request.
 *
 * The access line holds only the fields above, none of which can hold a header, a cookie or a token: it
 * is written through a child of the root logger without the redaction, which would copy and re-serialise
 * each of its values. Its `requestId` comes first, where the request's logger had it bound: the same
 * line. Every other line logged while the request is answered goes through the request's redacting
 * logger (request-context.ts), made when the first such line is.
 */
export function accessLog(
  root: RootLogger,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const log = unredactedLogger(root);
  return (req, res, next) => {
    const requestId = requestIdFor(req.headers['x-request-id']);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    Object.assign(req, { id: requestId, [REQUEST_ROOT_LOGGER]: root });
    const started = Date.now();
    // One line per response, whichever of its events comes first. 'finish' and 'close' are left on
    // the response, which is done with (a flag costs less than taking them off); the 'error' listener
    // goes, so that an error emitted later is not silenced by it.
    let logged = false;
    const done = (error?: Error): void => {
      if (logged) return;
      logged = true;
      res.off('error', done);
      const path = accessPath(req);
      const level = accessLevel(req, res, path, error);
      const fields = accessFields(requestId, req, res, path, Date.now() - started);
      const message = `${req.method} ${path} ${res.statusCode}`;
      if (error || res.statusCode >= 500)
        fields.err = (error ?? new Error(`failed with status code ${res.statusCode}`)).message;
      log[level](fields, message);
    };
    const onEnd = (): void => done();
    res.on('finish', onEnd);
    res.on('close', onEnd);
    res.on('error', done);
    next();
  };
}
