import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { MessageFeedback } from '../contracts/chats';
import { ChatEntity } from './chat.entity';
import type { ReplyInterruption, SenderType } from './message.entity';
import { MessageEntity } from './message.entity';

/**
 * An earlier version of a message: a reply that was regenerated (sender 'agent'), or the text a user
 * message had before an edit (sender 'user'). The shown version stays in `messages`, so every reader
 * of messages (pages, search, catch-up) is unchanged; the history is read only when someone browses it.
 * Both kinds hang off the user message (`message_id`): a reply's versions are those of the answer to it.
 */
@Entity({ name: 'message_versions' })
@Index('UQ_message_versions_version', ['messageId', 'senderType', 'version'], { unique: true })
export class MessageVersionEntity {
  /** A reply's version keeps the id it had when it was shown (its rating and feedback events name it). */
  @PrimaryColumn('uuid')
  id: string;

  /** The user message: the one edited, or the one the regenerated reply answered. */
  @Column({ name: 'message_id', type: 'uuid' })
  messageId: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: MessageEntity;

  @Index('IDX_message_versions_chat')
  @Column({ name: 'chat_id', type: 'uuid' })
  chatId: string;

  @ManyToOne(() => ChatEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'chat_id' })
  chat?: ChatEntity;

  /** The chat's company: every read is scoped by it (and by the chat's owner). */
  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @Column({ name: 'sender_type', type: 'varchar', length: 8 })
  senderType: SenderType;

  @Column({ name: 'sender_id', type: 'uuid' })
  senderId: string;

  /** 1 for the first text or reply; the shown message carries the next one. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'text' })
  content: string;

  /** A reply version's rating as it was when it was replaced (a new version starts unrated). */
  @Column({ type: 'varchar', length: 8, nullable: true })
  feedback: MessageFeedback | null;

  @Column({ name: 'feedback_reason', type: 'varchar', length: 500, nullable: true })
  feedbackReason: string | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  interrupted: ReplyInterruption | null;

  @Column({ name: 'interrupted_reason', type: 'varchar', length: 500, nullable: true })
  interruptedReason: string | null;

  /** When this version was written (the message's own time for a reply, the edit's for a text). */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When it stopped being the shown one. */
  @Column({ name: 'replaced_at', type: 'timestamptz', default: () => 'now()' })
  replacedAt: Date;
}
