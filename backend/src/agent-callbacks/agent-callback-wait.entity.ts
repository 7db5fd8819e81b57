import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A user message whose agent answered its webhook call with 202 Accepted: the reply now comes by
 * callback, until the deadline (agent-callbacks/, README "Long-running agents"). Written only then:
 * callback tokens are derived (callback-token.ts), so the ordinary message path writes nothing here.
 * No foreign key on the message: the sweep only looks at pending messages, and deletes rows a day past
 * their deadline.
 */
@Entity({ name: 'agent_callback_waits' })
@Index('IDX_agent_callback_waits_expires', ['expiresAt'])
export class AgentCallbackWaitEntity {
  @PrimaryColumn({ name: 'message_id', type: 'uuid' })
  messageId: string;

  /** The expiry of the token carried by the accepted webhook call (the latest, if several were). */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /** The agent's deadline then, for the message the user reads when it passes. */
  @Column({ name: 'deadline_minutes', type: 'smallint' })
  deadlineMinutes: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
