import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A token issued to an agent with one delivery of a user message (agent-callbacks/README in the main
 * README: "Long-running agents"). Only its SHA-256 is kept. Every delivery attempt of a message gets its
 * own token and all of them stay valid until the deadline, so an agent that deduplicates on `webhook-id`
 * and answers the first delivery it saw still gets through; the message is answered at most once.
 * No foreign key on the message: a token of a deleted message answers 404 (not 401) until it is swept.
 */
@Entity({ name: 'agent_callback_tokens' })
@Index('IDX_agent_callback_tokens_message', ['messageId'])
@Index('IDX_agent_callback_tokens_expires', ['expiresAt'])
export class AgentCallbackTokenEntity {
  @PrimaryColumn({ name: 'token_hash', type: 'bytea' })
  tokenHash: Buffer;

  @Column({ name: 'message_id', type: 'uuid' })
  messageId: string;

  /** The agent's deadline, counted from the webhook call that carried the token. */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /** Set when the webhook answered 202 Accepted: the reply now waits for a callback until the deadline. */
  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt: Date | null;

  /** Set when a callback with this token stored the reply: any further use is a replay. */
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
