import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';

/**
 * The Insights counters of one company's agent in one hour (UTC), on one of a few shards (a hash of the
 * chat): kept by triggers on messages in the transaction of the row they count (migration
 * InsightsRollups1764000000000), and by one upsert for what only the reply job knows (retries, a
 * streamed reply's first chunk, an answer it could not read). Read summed over shards and hours; never
 * from the messages. No foreign key on the agent: a deleted agent's history stays counted.
 */
@Entity({ name: 'insights_hourly' })
export class InsightsHourlyEntity {
  @PrimaryColumn({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: CompanyEntity;

  @PrimaryColumn({ type: 'timestamptz' })
  hour: Date;

  @PrimaryColumn({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @PrimaryColumn({ type: 'smallint' })
  shard: number;

  /** User messages sent to the agent. */
  @Column({ type: 'int', default: 0 })
  messages: number;

  @Column({ type: 'int', default: 0 })
  replies: number;

  /** Webhook attempts that failed and were tried again. */
  @Column({ type: 'int', default: 0 })
  retries: number;

  @Column({ name: 'failed_timeout', type: 'int', default: 0 })
  failedTimeout: number;

  @Column({ name: 'failed_http_status', type: 'int', default: 0 })
  failedHttpStatus: number;

  @Column({ name: 'failed_malformed', type: 'int', default: 0 })
  failedMalformed: number;

  @Column({ name: 'failed_ssrf_refused', type: 'int', default: 0 })
  failedSsrfRefused: number;

  @Column({ name: 'failed_callback_expired', type: 'int', default: 0 })
  failedCallbackExpired: number;

  @Column({ name: 'failed_network', type: 'int', default: 0 })
  failedNetwork: number;

  @Column({ name: 'failed_agent_error', type: 'int', default: 0 })
  failedAgentError: number;

  @Column({ name: 'failed_other', type: 'int', default: 0 })
  failedOther: number;

  /** From the user's message stored to the reply stored. */
  @Column({ name: 'latency_count', type: 'int', default: 0 })
  latencyCount: number;

  @Column({ name: 'latency_sum_ms', type: 'bigint', default: 0 })
  latencySumMs: string;

  /** One count per bucket of insight-buckets.ts. */
  @Column({ name: 'latency_buckets', type: 'int', array: true })
  latencyBuckets: number[];

  /** Streamed replies: from the user's message stored to the first piece of text. */
  @Column({ name: 'first_chunk_count', type: 'int', default: 0 })
  firstChunkCount: number;

  @Column({ name: 'first_chunk_sum_ms', type: 'bigint', default: 0 })
  firstChunkSumMs: string;

  @Column({ name: 'first_chunk_buckets', type: 'int', array: true })
  firstChunkBuckets: number[];

  @Column({ name: 'thumbs_up', type: 'int', default: 0 })
  thumbsUp: number;

  @Column({ name: 'thumbs_down', type: 'int', default: 0 })
  thumbsDown: number;
}

/**
 * The chats with a user message on a day (UTC) per agent, exact: active users and chats of a range are
 * distinct counts over it. One row per chat and day, with the chat's user messages that day (the
 * message quotas sum a member's day from them).
 */
@Entity({ name: 'insights_daily_chats' })
export class InsightsDailyChatEntity {
  @PrimaryColumn({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: CompanyEntity;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @PrimaryColumn({ name: 'chat_id', type: 'uuid' })
  chatId: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'int', default: 0 })
  messages: number;
}
