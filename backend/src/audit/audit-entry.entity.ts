import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AuditAction, AuditTargetType } from '../contracts/audit';

/**
 * One line of the audit log, written in the same transaction as the change it records. Actor, target and
 * company are kept as ids plus labels (no foreign keys): the log outlives deleted users and companies.
 */
@Entity({ name: 'audit_log' })
@Index('IDX_audit_log_action', ['action', 'id'])
@Index('IDX_audit_log_actor', ['actorId', 'id'])
@Index('IDX_audit_log_company', ['companyId', 'id'])
export class AuditEntryEntity {
  /** Also the cursor: newest first is `ORDER BY id DESC`. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  action: AuditAction;

  /** Null for actions nobody signed in did (a failed sign-in, a reset by emailed link). */
  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId: string | null;

  /**
   * The actor's email at the time (or the email a failed sign-in tried). Indexed as
   * `lower(actor_label) text_pattern_ops` for the case-insensitive prefix filter (migration
   * 1763813000000): an expression index, which TypeORM neither describes nor drops.
   */
  @Column({ name: 'actor_label', type: 'varchar', length: 320, nullable: true })
  actorLabel: string | null;

  @Column({ name: 'target_type', type: 'varchar', length: 32, nullable: true })
  targetType: AuditTargetType | null;

  @Column({ name: 'target_id', type: 'varchar', length: 64, nullable: true })
  targetId: string | null;

  /** What the target was called at the time: an email, a company or agent name. */
  @Column({ name: 'target_label', type: 'varchar', length: 320, nullable: true })
  targetLabel: string | null;

  @Column({ name: 'company_id', type: 'uuid', nullable: true })
  companyId: string | null;

  @Column({ name: 'company_name', type: 'varchar', length: 200, nullable: true })
  companyName: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  /** Small action-specific facts (old and new role, changed setting keys...); never secrets. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
