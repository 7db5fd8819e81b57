import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { AgentEntity } from '../agents/agent.entity';
import { CompanyEntity } from '../companies/company.entity';
import { UserEntity } from '../profiles/user.entity';

/** A conversation of one user with one agent in one company. */
@Entity({ name: 'chats' })
/** The list's keyset order; the migration makes updated_at and id descending (TypeORM cannot say so). */
@Index('IDX_chats_owner_page', ['userId', 'companyId', 'isArchived', 'updatedAt', 'id'])
export class ChatEntity {
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

  @Index('IDX_chats_agent')
  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id' })
  agent?: AgentEntity;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ name: 'is_archived', type: 'boolean', default: false })
  isArchived: boolean;

  /** Kept with each message so the list needs no join over messages. */
  @Column({ name: 'last_message', type: 'varchar', length: 200, nullable: true })
  lastMessage: string | null;

  @Column({ name: 'last_message_at', type: 'timestamptz', nullable: true })
  lastMessageAt: Date | null;

  /**
   * One more each time a message of the chat changes in place (a rating, an edit, a regenerated reply):
   * part of the row, so a socket's catch-up version (ChatsRepository.syncVersion) sees such changes.
   */
  @Column({ type: 'integer', default: 0 })
  revision: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
