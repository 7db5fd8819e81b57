import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { InsightsBucket } from '../contracts/insights';
import { FAILURE_KINDS, LATENCY_BUCKETS } from './insight-buckets';

/** The summed counters of some rollup rows (one agent, one period, or all of them). */
export interface RollupSums {
  messages: number;
  replies: number;
  retries: number;
  failures: number[];
  latencyCount: number;
  latencySumMs: number;
  latencyBuckets: number[];
  firstChunkCount: number;
  firstChunkSumMs: number;
  firstChunkBuckets: number[];
  thumbsUp: number;
  thumbsDown: number;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Every counter summed, each histogram bucket summed on its own (no unnest: one pass over the rows). */
const SUMS = [
  'sum(h.messages)::int AS messages',
  'sum(h.replies)::int AS replies',
  'sum(h.retries)::int AS retries',
  `ARRAY[${FAILURE_KINDS.map((kind) => `sum(h.failed_${kind})`).join(', ')}]::int[] AS failures`,
  'sum(h.latency_count)::int AS latency_count',
  'sum(h.latency_sum_ms)::float8 AS latency_sum_ms',
  `ARRAY[${range(LATENCY_BUCKETS)
    .map((i) => `sum(h.latency_buckets[${i}])`)
    .join(', ')}]::int[] AS latency_buckets`,
  'sum(h.first_chunk_count)::int AS first_chunk_count',
  'sum(h.first_chunk_sum_ms)::float8 AS first_chunk_sum_ms',
  `ARRAY[${range(LATENCY_BUCKETS)
    .map((i) => `sum(h.first_chunk_buckets[${i}])`)
    .join(', ')}]::int[] AS first_chunk_buckets`,
  'sum(h.thumbs_up)::int AS thumbs_up',
  'sum(h.thumbs_down)::int AS thumbs_down',
].join(',\n  ');

/** The rows of one company in [from, to), of one agent when $4 is set. */
const IN_RANGE = `h.company_id = $1 AND h.hour >= $2 AND h.hour < $3 AND ($4::uuid IS NULL OR h.agent_id = $4)`;

interface SumsRow {
  messages: number;
  replies: number;
  retries: number;
  failures: number[];
  latency_count: number;
  latency_sum_ms: number;
  latency_buckets: number[];
  first_chunk_count: number;
  first_chunk_sum_ms: number;
  first_chunk_buckets: number[];
  thumbs_up: number;
  thumbs_down: number;
}

function toSums(row: SumsRow): RollupSums {
  return {
    messages: row.messages,
    replies: row.replies,
    retries: row.retries,
    failures: row.failures,
    latencyCount: row.latency_count,
    latencySumMs: row.latency_sum_ms,
    latencyBuckets: row.latency_buckets,
    firstChunkCount: row.first_chunk_count,
    firstChunkSumMs: row.first_chunk_sum_ms,
    firstChunkBuckets: row.first_chunk_buckets,
    thumbsUp: row.thumbs_up,
    thumbsDown: row.thumbs_down,
  };
}

export interface RangeQuery {
  companyId: string;
  from: Date;
  to: Date;
  agentId: string | null;
}

/** Reads of the Insights rollups; every one is scoped by company (and agent when asked). */
@Injectable()
export class InsightsRepository {
  constructor(private readonly db: Database) {}

  /** Per agent over the range, with the agent's name (null once deleted). */
  async byAgent(
    q: RangeQuery,
  ): Promise<Array<{ agentId: string; agentName: string | null; sums: RollupSums }>> {
    const rows = await this.db.query<SumsRow & { agent_id: string; agent_name: string | null }>(
      `SELECT h.agent_id, min(a.name) AS agent_name, ${SUMS}
         FROM insights_hourly h LEFT JOIN agents a ON a.id = h.agent_id AND a.company_id = h.company_id
        WHERE ${IN_RANGE}
        GROUP BY h.agent_id`,
      [q.companyId, q.from, q.to, q.agentId],
    );
    return rows.map((row) => ({ agentId: row.agent_id, agentName: row.agent_name, sums: toSums(row) }));
  }

  /** Per hour or day (UTC) over the range: only periods with rows. */
  async series(q: RangeQuery, bucket: InsightsBucket): Promise<Array<{ at: Date; sums: RollupSums }>> {
    const period =
      bucket === 'day' ? `date_trunc('day', h.hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'` : 'h.hour';
    const rows = await this.db.query<SumsRow & { at: Date }>(
      `SELECT ${period} AS at, ${SUMS}
         FROM insights_hourly h WHERE ${IN_RANGE}
        GROUP BY 1 ORDER BY 1`,
      [q.companyId, q.from, q.to, q.agentId],
    );
    return rows.map((row) => ({ at: row.at, sums: toSums(row) }));
  }

  /**
   * Distinct users and chats with a message on the range's days (UTC), per agent and in all (the
   * `agent_id` null row): exact, from the one-row-per-chat-and-day table.
   */
  async activity(q: RangeQuery): Promise<Array<{ agentId: string | null; users: number; chats: number }>> {
    const rows = await this.db.query<{ agent_id: string | null; users: number; chats: number }>(
      // A chat has one user and one agent: its days collapse first (hashed), then the counts are small.
      `SELECT x.agent_id, count(DISTINCT x.user_id)::int AS users, count(*)::int AS chats
         FROM (SELECT DISTINCT d.agent_id, d.chat_id, d.user_id FROM insights_daily_chats d
                WHERE d.company_id = $1 AND d.day >= ($2::timestamptz AT TIME ZONE 'UTC')::date
                  AND d.day <= (($3::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC')::date
                  AND ($4::uuid IS NULL OR d.agent_id = $4)) x
        GROUP BY GROUPING SETS ((x.agent_id), ())`,
      [q.companyId, q.from, q.to, q.agentId],
    );
    return rows.map((row) => ({ agentId: row.agent_id, users: row.users, chats: row.chats }));
  }
}
