import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { MessageFeedback } from '../contracts/chats';
import { ChatEntity } from './chat.entity';

export type SenderType = 'user' | 'agent';
/** For a user's message: where its agent reply stands. Null on agent messages. */
export type ReplyStatus = 'pending' | 'replied' | 'failed' | 'skipped';
/**
 * On an agent reply that was streamed and cut short (what came is stored): `stopped` by the user,
 * `timeout` (the agent stalled mid-stream), `error` (the agent sent an error chunk).
 */
export type ReplyInterruption = 'stopped' | 'timeout' | 'error';

@Entity({ name: 'messages' })
@Index('IDX_messages_chat_seq', ['chatId', 'seq'])
// One reply pending per chat: what refuses the second of two simultaneous sends (ChatsRepository.send).
@Index('UQ_messages_pending', ['chatId'], { unique: true, where: "reply_status = 'pending'" })
@Index('UQ_messages_reply_to', ['replyTo'], { unique: true, where: 'reply_to IS NOT NULL' })
@Index('UQ_messages_voice_event', ['chatId', 'voiceEventId'], {
  unique: true,
  where: 'voice_event_id IS NOT NULL',
})
export class MessageEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Total order for cursors: created_at can tie, seq cannot. */
  @Column({
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    generated: 'identity',
    insert: false,
    update: false,
  })
  seq: string;

  @Column({ name: 'chat_id', type: 'uuid' })
  chatId: string;

  @ManyToOne(() => ChatEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'chat_id' })
  chat?: ChatEntity;

  @Column({ name: 'sender_id', type: 'uuid' })
  senderId: string;

  @Column({ name: 'sender_type', type: 'varchar', length: 8 })
  senderType: SenderType;

  @Column({ type: 'text' })
  content: string;

  @Column({ name: 'is_voice_message', type: 'boolean', default: false })
  isVoiceMessage: boolean;

  /** On an agent reply: the user message it answers (at most one reply each). */
  @Column({ name: 'reply_to', type: 'uuid', nullable: true })
  replyTo: string | null;

  @Column({ name: 'reply_status', type: 'varchar', length: 8, nullable: true })
  replyStatus: ReplyStatus | null;

  /**
   * On a voice transcript turn: the provider's conversation and event ids ("{conversationId}:{eventId}").
   * Unique per chat, so a turn saved twice (a retry, a second tab) is one message.
   */
  @Column({ name: 'voice_event_id', type: 'varchar', length: 200, nullable: true })
  voiceEventId: string | null;

  /** On an agent's reply (text or voice turn): the user's rating. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  feedback: MessageFeedback | null;

  /** With a thumbs down: why, in the user's words (optional). */
  @Column({ name: 'feedback_reason', type: 'varchar', length: 500, nullable: true })
  feedbackReason: string | null;

  /** On a streamed agent reply cut short: why (what came was stored). */
  @Column({ type: 'varchar', length: 8, nullable: true })
  interrupted: ReplyInterruption | null;

  /** With `interrupted` 'error': the agent's own message (its n8n error chunk), cut to 500 characters. */
  @Column({ name: 'interrupted_reason', type: 'varchar', length: 500, nullable: true })
  interruptedReason: string | null;

  /**
   * 1, then one more per edit (a user message) or per regenerated answer (a reply); the earlier ones are
   * in message_versions.
   */
  @Column({ type: 'integer', default: 1 })
  version: number;

  /**
   * On a user message: the round of its reply, 0 for the first answer and one more per regenerate (or
   * edit). The reply job, the webhook delivery id and callback tokens carry it, so nothing of an earlier
   * round can answer a later one.
   */
  @Column({ name: 'reply_round', type: 'integer', default: 0 })
  replyRound: number;

  /** On a user message whose reply was asked for again: when (stale-reply sweeps count from it). */
  @Column({ name: 'reply_requested_at', type: 'timestamptz', nullable: true })
  replyRequestedAt: Date | null;

  /** On a user message whose reply failed: why, as the Insights count it (insights/insight-buckets.ts). */
  @Column({ name: 'reply_failure', type: 'varchar', length: 16, nullable: true })
  replyFailure: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Full-text search words of the content (search/search.repository.ts); PostgreSQL computes it. */
  // GIN, built by migration 1763920000000 (TypeORM cannot declare an index method): never synchronized.
  @Index('IDX_messages_search', { synchronize: false })
  @Column({
    name: 'search_vector',
    type: 'tsvector',
    generatedType: 'STORED',
    asExpression: `to_tsvector('simple'::regconfig, left(content, 100000))`,
    select: false,
    insert: false,
    update: false,
    nullable: true,
  })
  searchVector?: string;
}
