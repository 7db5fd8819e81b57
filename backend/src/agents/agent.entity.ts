import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { CompanyEntity } from '../companies/company.entity';
import { UserEntity } from '../profiles/user.entity';

/**
 * An automation webhook a user chats with, owned by one user in one company. Each (user, company) has
 * exactly one default agent, which the API calls 'default-agent'.
 */
@Entity({ name: 'agents' })
@Index('IDX_agents_user_company', ['userId', 'companyId', 'createdAt'])
@Index('UQ_agents_default', ['userId', 'companyId'], { unique: true, where: 'is_default' })
export class AgentEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: CompanyEntity;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 500, default: 'Custom agent' })
  description: string;

  @Column({ name: 'avatar_file_id', type: 'uuid', nullable: true })
  avatarFileId: string | null;

  /** Null on the default agent: it uses DEFAULT_AGENT_WEBHOOK or the built-in demo agent. */
  @Column({ type: 'varchar', length: 2000, nullable: true })
  webhook: string | null;

  @Column({ name: 'default_questions', type: 'jsonb', default: () => "'[]'" })
  defaultQuestions: string[];

  @Column({ name: 'elevenlabs_agent_id', type: 'varchar', length: 200, nullable: true })
  elevenlabsAgentId: string | null;

  /** Standard Webhooks secret ("whsec_..."); when set, every call is signed. */
  @Column({ name: 'signing_secret', type: 'varchar', length: 200, nullable: true })
  signingSecret: string | null;

  /**
   * How long an agent that answers 202 Accepted may take to deliver its reply by callback (1 to 60
   * minutes); the reply fails then.
   */
  @Column({ name: 'callback_deadline_minutes', type: 'smallint', default: 10 })
  callbackDeadlineMinutes: number;

  /** The agent wants to be told of its replies' ratings (a `feedback` event to its webhook). */
  @Column({ name: 'send_feedback', type: 'boolean', default: false })
  sendFeedback: boolean;
  /** Files go in the webhook body as base64 (n8n's chat trigger shape) instead of signed links. */
  @Column({ name: 'send_files_inline', type: 'boolean', default: false })
  sendFilesInline: boolean;

  @Column({ name: 'is_editable', type: 'boolean', default: true })
  isEditable: boolean;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault: boolean;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
