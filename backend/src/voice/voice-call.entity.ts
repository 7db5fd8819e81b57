import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A voice call the api started (POST /api/voice/sessions): the only thing a transcript turn may be
 * saved under, by the same user in the same company, into its chat, until it expires. No foreign keys:
 * a row outlives nothing it matters to (a deleted chat refuses the turn anyway) and is short-lived.
 */
@Entity({ name: 'voice_calls' })
@Index('IDX_voice_calls_owner', ['companyId', 'userId'])
export class VoiceCallEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ name: 'chat_id', type: 'uuid' })
  chatId: string;

  /** The agent as the chat names it ('default-agent' or the agent's uuid). */
  @Column({ name: 'agent_id', type: 'varchar', length: 64 })
  agentId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
