import { Injectable } from '@nestjs/common';
import type { CompanyScope } from '../common/company-scope';
import { ValidationFailedError } from '../common/domain-errors';
import { requireManager } from '../company-admin/require-manager';
import {
  INSIGHT_FAILURE_KINDS,
  INSIGHTS_MAX_RANGE_DAYS,
  type InsightsBucket,
  type InsightsCounters,
  type InsightsQuery,
  type InsightsReport,
  type LatencySummary,
} from '../contracts/insights';
import { quantileFromBuckets } from './insight-buckets';
import { InsightsRepository, type RollupSums } from './insights.repository';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const INSIGHTS_RANGE_BACKWARDS = 'from must be before to';
export const INSIGHTS_RANGE_TOO_LONG = `The range can cover at most ${INSIGHTS_MAX_RANGE_DAYS} days`;

const EMPTY: RollupSums = {
  messages: 0,
  replies: 0,
  retries: 0,
  failures: INSIGHT_FAILURE_KINDS.map(() => 0),
  latencyCount: 0,
  latencySumMs: 0,
  latencyBuckets: [],
  firstChunkCount: 0,
  firstChunkSumMs: 0,
  firstChunkBuckets: [],
  thumbsUp: 0,
  thumbsDown: 0,
};

function summary(count: number, sumMs: number, buckets: readonly number[]): LatencySummary {
  return {
    count,
    p50Ms: quantileFromBuckets(buckets, 0.5),
    p95Ms: quantileFromBuckets(buckets, 0.95),
    avgMs: count ? Math.round(sumMs / count) : null,
  };
}

function counters(sums: RollupSums, activity: { users: number; chats: number }): InsightsCounters {
  const failures = Object.fromEntries(
    INSIGHT_FAILURE_KINDS.map((kind, i) => [kind, sums.failures[i] ?? 0]),
  ) as InsightsCounters['failures'];
  return {
    messages: sums.messages,
    replies: sums.replies,
    activeUsers: activity.users,
    chats: activity.chats,
    failed: sums.failures.reduce((a, b) => a + b, 0),
    failures,
    retries: sums.retries,
    latency: summary(sums.latencyCount, sums.latencySumMs, sums.latencyBuckets),
    firstChunk: summary(sums.firstChunkCount, sums.firstChunkSumMs, sums.firstChunkBuckets),
    thumbsUp: sums.thumbsUp,
    thumbsDown: sums.thumbsDown,
  };
}

function add(a: RollupSums, b: RollupSums): RollupSums {
  const plus = (x: readonly number[], y: readonly number[]) =>
    Array.from({ length: Math.max(x.length, y.length) }, (_, i) => (x[i] ?? 0) + (y[i] ?? 0));
  return {
    messages: a.messages + b.messages,
    replies: a.replies + b.replies,
    retries: a.retries + b.retries,
    failures: plus(a.failures, b.failures),
    latencyCount: a.latencyCount + b.latencyCount,
    latencySumMs: a.latencySumMs + b.latencySumMs,
    latencyBuckets: plus(a.latencyBuckets, b.latencyBuckets),
    firstChunkCount: a.firstChunkCount + b.firstChunkCount,
    firstChunkSumMs: a.firstChunkSumMs + b.firstChunkSumMs,
    firstChunkBuckets: plus(a.firstChunkBuckets, b.firstChunkBuckets),
    thumbsUp: a.thumbsUp + b.thumbsUp,
    thumbsDown: a.thumbsDown + b.thumbsDown,
  };
}

/** The range asked for, widened to whole hours (the rollups' step) and checked. */
export function insightsRange(
  query: InsightsQuery,
  now = Date.now(),
): { from: Date; to: Date; bucket: InsightsBucket } {
  const toMs = query.to ? Date.parse(query.to) : now;
  const fromMs = query.from ? Date.parse(query.from) : toMs - DAY_MS;
  if (!(fromMs < toMs)) throw new ValidationFailedError(INSIGHTS_RANGE_BACKWARDS);
  const from = Math.floor(fromMs / HOUR_MS) * HOUR_MS;
  const to = Math.ceil(toMs / HOUR_MS) * HOUR_MS;
  if (to - from > INSIGHTS_MAX_RANGE_DAYS * DAY_MS + HOUR_MS)
    throw new ValidationFailedError(INSIGHTS_RANGE_TOO_LONG);
  const bucket = query.bucket ?? (to - from <= 2 * DAY_MS ? 'hour' : 'day');
  return { from: new Date(from), to: new Date(to), bucket };
}

/** Company Admin → Insights: the company's numbers, from the rollups only. */
@Injectable()
export class InsightsService {
  constructor(private readonly rollups: InsightsRepository) {}

  async report(scope: CompanyScope, query: InsightsQuery): Promise<InsightsReport> {
    requireManager(scope);
    const { from, to, bucket } = insightsRange(query);
    const q = { companyId: scope.companyId, from, to, agentId: query.agentId ?? null };
    const [agents, series, activity] = await Promise.all([
      this.rollups.byAgent(q),
      this.rollups.series(q, bucket),
      this.rollups.activity(q),
    ]);
    const activityOf = new Map(activity.map((a) => [a.agentId, a]));
    const none = { users: 0, chats: 0 };
    const total = agents.reduce((sum, agent) => add(sum, agent.sums), EMPTY);
    const byPeriod = new Map(series.map((point) => [point.at.getTime(), point.sums]));
    const step = bucket === 'day' ? DAY_MS : HOUR_MS;
    const first = bucket === 'day' ? Math.floor(from.getTime() / DAY_MS) * DAY_MS : from.getTime();
    const points = [];
    for (let at = first; at < to.getTime(); at += step) {
      const sums = byPeriod.get(at) ?? EMPTY;
      points.push({
        at: new Date(at).toISOString(),
        messages: sums.messages,
        replies: sums.replies,
        failed: sums.failures.reduce((a, b) => a + b, 0),
        latencyP50Ms: quantileFromBuckets(sums.latencyBuckets, 0.5),
        latencyP95Ms: quantileFromBuckets(sums.latencyBuckets, 0.95),
      });
    }
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      bucket,
      total: counters(total, activityOf.get(null) ?? none),
      agents: agents
        .map((agent) => ({
          agentId: agent.agentId,
          agentName: agent.agentName,
          ...counters(agent.sums, activityOf.get(agent.agentId) ?? none),
        }))
        .sort((a, b) => b.messages - a.messages || a.agentId.localeCompare(b.agentId)),
      series: points,
    };
  }
}
