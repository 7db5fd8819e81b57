import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';
import type { DeliveryOutcome } from '../contracts/deliveries';

/**
 * One webhook delivery of a reply job (deliveries/): the call for one round of a user message's reply,
 * one row however many attempts it took (each attempt updates it). Written by one statement after the
 * attempt (never per streamed chunk). Bodies are kept while the company's retention says so, then
 * cleared by `deliveries.prune`, which also deletes rows past DELIVERY_HORIZON_DAYS. No foreign keys on
 * the agent, chat or messages: the log outlives them (a replay then says what is gone).
 */
@Entity({ name: 'webhook_deliveries' })
@Index('UQ_webhook_deliveries_round', ['messageId', 'round'], { unique: true })
@Index('IDX_webhook_deliveries_company', ['companyId', 'startedAt', 'id'])
@Index('IDX_webhook_deliveries_agent', ['companyId', 'agentId', 'startedAt', 'id'])
@Index('IDX_webhook_deliveries_started', ['startedAt'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: CompanyEntity;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ name: 'chat_id', type: 'uuid' })
  chatId: string;

  /** The user message the call asked the agent to answer. */
  @Column({ name: 'message_id', type: 'uuid' })
  messageId: string;

  /** The reply stored from this delivery (null until one is, or when none was). */
  @Column({ name: 'reply_id', type: 'uuid', nullable: true })
  replyId: string | null;

  @Column({ type: 'int' })
  round: number;

  /** The first attempt's start. */
  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  /** The last attempt's. */
  @Column({ name: 'duration_ms', type: 'int' })
  durationMs: number;

  @Column({ type: 'smallint' })
  attempts: number;

  @Column({ type: 'varchar', length: 20 })
  outcome: DeliveryOutcome;

  @Column({ name: 'http_status', type: 'smallint', nullable: true })
  httpStatus: number | null;

  /** The webhook-id header (the agent's logs have it). */
  @Column({ name: 'request_id', type: 'varchar', length: 100 })
  requestId: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  /** This delivery replays that one. */
  @Column({ name: 'replay_of', type: 'uuid', nullable: true })
  replayOf: string | null;

  /** When this (failed) delivery was replayed, and by whom: once only. */
  @Column({ name: 'replayed_at', type: 'timestamptz', nullable: true })
  replayedAt: Date | null;

  @Column({ name: 'replayed_by', type: 'uuid', nullable: true })
  replayedBy: string | null;

  /** Redacted and truncated; null when the company keeps no bodies, or past its retention. */
  @Column({ name: 'request_headers', type: 'jsonb', nullable: true })
  requestHeaders: Record<string, string> | null;

  @Column({ name: 'request_body', type: 'text', nullable: true })
  requestBody: string | null;

  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;
}
