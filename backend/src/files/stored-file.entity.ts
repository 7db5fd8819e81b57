import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { ChatEntity } from '../chats/chat.entity';
import { MessageEntity } from '../chats/message.entity';
import { CompanyEntity } from '../companies/company.entity';
import { UserEntity } from '../profiles/user.entity';

/** Where a file's bytes are: in its own row (`inline`), in `file_chunks` (`pg`), or in the S3 bucket (`s3`). */
export type FileStorage = 'inline' | 'pg' | 's3';

/** How a message shows an attachment: an image (re-encoded by us) or a file card that downloads. */
export type AttachmentKind = 'image' | 'file';

/**
 * Stored files. Avatars and logos are small re-encoded images kept in the row itself (`data`); files
 * attached to messages are kept in chunks or in the S3 bucket, and belong to a company, a chat and (once
 * a message uses them) a message. Deleting the chat or the message deletes their rows.
 */
@Entity({ name: 'files' })
export class StoredFileEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('IDX_files_owner')
  @Column({ name: 'owner_id', type: 'uuid', nullable: true })
  ownerId: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_id' })
  owner?: UserEntity;

  @Column({ type: 'varchar', length: 32 })
  purpose: string;

  @Column({ name: 'content_type', type: 'varchar', length: 100 })
  contentType: string;

  @Column({ type: 'integer' })
  size: number;

  /** Only for `inline` storage (avatars, logos). */
  @Column({ type: 'bytea', select: false, nullable: true })
  data: Buffer | null;

  @Column({ type: 'varchar', length: 8, default: 'inline' })
  storage: FileStorage;

  @Index('IDX_files_company')
  @Column({ name: 'company_id', type: 'uuid', nullable: true })
  companyId: string | null;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: CompanyEntity;

  @Index('IDX_files_chat')
  @Column({ name: 'chat_id', type: 'uuid', nullable: true })
  chatId: string | null;

  @ManyToOne(() => ChatEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'chat_id' })
  chat?: ChatEntity;

  @Index('IDX_files_message')
  @Column({ name: 'message_id', type: 'uuid', nullable: true })
  messageId: string | null;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: MessageEntity;

  /** The attachment's place among its message's. */
  @Column({ type: 'smallint', nullable: true })
  position: number | null;

  /** The name the uploader gave the file (attachments only). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  kind: AttachmentKind | null;

  @Column({ type: 'integer', nullable: true })
  width: number | null;

  @Column({ type: 'integer', nullable: true })
  height: number | null;

  /**
   * While an upload's bytes are being stored: the size it declared, counted against its company's
   * stored-bytes quota (0 once stored: `size` counts then).
   */
  @Column({ name: 'reserved_bytes', type: 'bigint', default: '0' })
  reservedBytes: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Search words of the attachment's name (search/search.repository.ts); PostgreSQL computes it. */
  // GIN, built by migration 1763990000001 (TypeORM cannot declare an index method): never synchronized.
  @Index('IDX_files_name_search', { synchronize: false })
  @Column({
    name: 'name_vector',
    type: 'tsvector',
    generatedType: 'STORED',
    asExpression: `to_tsvector('simple'::regconfig, regexp_replace(COALESCE(name, ''), '[^[:alnum:]]+', ' ', 'g'))`,
    select: false,
    insert: false,
    update: false,
    nullable: true,
  })
  nameVector?: string;
}

/** A file's bytes in PostgreSQL, 256 KB a row (1 MB in older files), written and read a row at a time. */
@Entity({ name: 'file_chunks' })
export class FileChunkEntity {
  @PrimaryColumn({ name: 'file_id', type: 'uuid' })
  fileId: string;

  @ManyToOne(() => StoredFileEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'file_id' })
  file?: StoredFileEntity;

  @PrimaryColumn({ type: 'integer' })
  idx: number;

  @Column({ type: 'bytea' })
  data: Buffer;
}
