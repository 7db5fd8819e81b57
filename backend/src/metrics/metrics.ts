import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PermanentJobError } from '../queue/job-types';

/**
 * Prometheus metrics of this process (api or worker), one registry per process. Served at `/metrics` on
 * METRICS_PORT when set (metrics.module.ts), never on the app's PORT. Series are made here once; the hot paths only
 * observe (README "Metrics" lists them).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SLOW_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const httpDuration = new Histogram({
  name: 'switchboard_http_request_duration_seconds',
  help: 'HTTP requests by method, route template (unmatched: 404 outside any route; static: the app page and its files) and status class',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const connectedSockets = new Gauge({
  name: 'switchboard_socketio_connected_sockets',
  help: 'Socket.IO connections open on this api process',
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'switchboard_job_duration_seconds',
  help: 'Time a job handler ran, by job name (each attempt counts)',
  labelNames: ['job'] as const,
  buckets: SLOW_BUCKETS,
  registers: [registry],
});

export const jobOutcomes = new Counter({
  name: 'switchboard_jobs_total',
  help: 'Job attempts by job name and outcome (completed, failed: to be retried or out of attempts, failed_permanently: not retried)',
  labelNames: ['job', 'outcome'] as const,
  registers: [registry],
});

export const queueJobs = new Gauge({
  name: 'switchboard_queue_jobs',
  help: 'Jobs in the BullMQ queue by state (waiting, active, delayed), read when scraped',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});

export const webhookDuration = new Histogram({
  name: 'switchboard_webhook_duration_seconds',
  help: 'Agent webhook calls, from the request to the outcome, by outcome',
  labelNames: ['outcome'] as const,
  buckets: SLOW_BUCKETS,
  registers: [registry],
});

export type WebhookOutcomeKind = 'ok' | 'http_error' | 'timeout' | 'network_error' | 'too_large' | 'refused';

export const webhookCalls = new Counter({
  name: 'switchboard_webhook_calls_total',
  help: 'Agent webhook calls by outcome (ok, http_error, timeout, network_error, too_large, refused) and status class (none without an answer)',
  labelNames: ['outcome', 'status_class'] as const,
  registers: [registry],
});

export const replyOutcomes = new Counter({
  name: 'switchboard_replies_total',
  help: 'Agent replies to user messages by outcome (replied: stored; failed: the user saw an error)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/**
 * Replies per company and agent by outcome: `replied`, or the Insights' failure kind (timeout,
 * http_status, malformed, ssrf_refused, callback_expired, network, agent_error, other). Bounded: the
 * first AGENT_SERIES_MAX (company, agent) pairs a process sees get their own labels; any later one is
 * counted under company_id="other", agent_id="other". So at most (AGENT_SERIES_MAX + 1) x 9 series.
 */
export const agentReplyOutcomes = new Counter({
  name: 'switchboard_agent_replies_total',
  help: 'Agent replies by company id, agent id and outcome (replied, or why it failed); pairs past the cap are "other"',
  labelNames: ['company_id', 'agent_id', 'outcome'] as const,
  registers: [registry],
});
export const AGENT_SERIES_MAX = 500;
const labelledAgents = new Set<string>();

/** One reply of an agent of a company: stored (`replied`) or failed (its kind). */
export function recordAgentReply(companyId: string, agentId: string, outcome: string): void {
  const key = `${companyId}/${agentId}`;
  if (!labelledAgents.has(key) && labelledAgents.size < AGENT_SERIES_MAX) labelledAgents.add(key);
  if (labelledAgents.has(key)) agentReplyOutcomes.inc({ company_id: companyId, agent_id: agentId, outcome });
  else agentReplyOutcomes.inc({ company_id: 'other', agent_id: 'other', outcome });
}

// Made once, so recording allocates no label strings.
const STATUS_CLASSES = ['none', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;
function statusClass(status: number): string {
  const index = Math.floor(status / 100);
  return index >= 1 && index <= 5 ? STATUS_CLASSES[index] : 'none';
}

const STARTED = Symbol('metricsStarted');
type Timed = Response & { [STARTED]?: number };

/** Express middleware: times every request to the api (one listener, one histogram observe). */
export function recordHttpRequests(_req: Request, res: Response, next: NextFunction): void {
  (res as Timed)[STARTED] = performance.now();
  // A response finishes once: `on`, without the wrapper `once` makes and takes off again per request.
  res.on('finish', onResponseFinished);
  next();
}

function onResponseFinished(this: Timed): void {
  const started = this[STARTED];
  if (started === undefined) return;
  const req = this.req;
  const status = this.statusCode;
  // The route template Express matched (`/api/chats/:id/messages`), never the raw URL: bounded labels.
  const path = (req.route as { path?: unknown } | undefined)?.path;
  // A 404 from a catch-all (Nest's `/api*path` not-found route) matched nothing real.
  const route =
    typeof path === 'string' && !(status === 404 && path.includes('*'))
      ? req.baseUrl
        ? req.baseUrl + path
        : path
      : status === 404
        ? 'unmatched'
        : status < 400
          ? 'static'
          : 'other';
  httpDuration.observe(
    { method: req.method, route, status_class: statusClass(status) },
    (performance.now() - started) / 1000,
  );
}

/** Wraps a job handler: its duration and outcome by job name. Used for every handler the registry finds. */
export function timedJob<A extends unknown[]>(
  name: string,
  handler: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const started = performance.now();
    let outcome = 'completed';
    try {
      await handler(...args);
    } catch (error) {
      outcome = error instanceof PermanentJobError ? 'failed_permanently' : 'failed';
      throw error;
    } finally {
      jobDuration.observe({ job: name }, (performance.now() - started) / 1000);
      jobOutcomes.inc({ job: name, outcome });
    }
  };
}

/** One webhook call ended: `started` is performance.now() when it began. */
export function recordWebhookCall(kind: WebhookOutcomeKind, status: number, started: number): void {
  webhookDuration.observe({ outcome: kind }, (performance.now() - started) / 1000);
  webhookCalls.inc({ outcome: kind, status_class: statusClass(status) });
}

export function recordReplies(outcome: 'replied' | 'failed', count = 1): void {
  if (count > 0) replyOutcomes.inc({ outcome }, count);
}

/** Values read when scraped (open sockets, queue depth): each process registers its sources. */
export interface ScrapeSource {
  sockets?(): number;
  queueCounts?(): Promise<Record<string, number>>;
}

const sources = new Set<ScrapeSource>();

export function addScrapeSource(source: ScrapeSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

const QUEUE_READ_TIMEOUT_MS = 1000;
const QUEUE_STATES = ['waiting', 'active', 'delayed'] as const;

/** The text Prometheus scrapes: reads the scrape-time values first. */
export async function renderMetrics(): Promise<string> {
  let sockets = 0;
  const queued: Record<string, number> = {};
  let queueRead = false;
  for (const source of sources) {
    if (source.sockets) sockets += source.sockets();
    if (!source.queueCounts) continue;
    let timer: NodeJS.Timeout | undefined;
    const counts = await Promise.race([
      source.queueCounts().catch(() => null),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), QUEUE_READ_TIMEOUT_MS))),
    ]).finally(() => clearTimeout(timer));
    if (!counts) continue; // Redis away: the series keep their last values rather than read as 0
    queueRead = true;
    for (const state of QUEUE_STATES) queued[state] = (queued[state] ?? 0) + (counts[state] ?? 0);
  }
  connectedSockets.set(sockets);
  if (queueRead)
    for (const state of QUEUE_STATES) queueJobs.set({ queue: 'switchboard', state }, queued[state]);
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;

/** GET /metrics on METRICS_PORT. */
export function serveMetrics(_req: unknown, res: ServerResponse): void {
  renderMetrics().then(
    (text) => {
      res.statusCode = 200;
      res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
      res.setHeader('Cache-Control', 'no-store');
      res.end(text);
    },
    (error: unknown) => {
      res.statusCode = 500;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end(`metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`);
    },
  );
}
