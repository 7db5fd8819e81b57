import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from '../profiles/user.entity';
import { CompanyEntity } from './company.entity';

export const COMPANY_ROLES = ['owner', 'admin', 'user'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

/** Membership of a user in a company, with the role that decides what they may manage. */
@Entity({ name: 'company_users' })
@Index('UQ_company_users_company_user', ['companyId', 'userId'], { unique: true })
/** Company Users' keyset order (oldest member first). */
@Index('IDX_company_users_company_joined', ['companyId', 'createdAt', 'id'])
export class CompanyUserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'company_id', type: 'uuid' })
  companyId: string;

  @ManyToOne(() => CompanyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id' })
  company?: CompanyEntity;

  @Index('IDX_company_users_user')
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 16 })
  role: CompanyRole;

  @Column({ name: 'invited_by', type: 'uuid', nullable: true })
  invitedBy: string | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by' })
  inviter?: UserEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
