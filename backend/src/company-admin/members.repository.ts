import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { CompanyUserEntity } from '../companies/company-user.entity';
import type { CompanyRole } from '../contracts/companies';
import type { MemberView } from '../contracts/company-admin';
import { fileUrl } from '../files/files.service';
import { type Keyset, keysetAt } from '../common/keyset-cursor';
import { likePattern } from '../platform-admin/users.repository';
import { personName } from './require-manager';

function toMemberView(row: CompanyUserEntity): MemberView {
  const user = row.user;
  return {
    userId: row.userId,
    name: user ? personName(user) : 'Unnamed User',
    email: user?.email ?? '',
    avatar: fileUrl(user?.avatarFileId ?? null),
    role: row.role,
    joinedAt: row.createdAt.toISOString(),
  };
}

interface MemberRow {
  id: string;
  user_id: string;
  role: CompanyRole;
  created_at: Date;
  keyset_at: string;
  email: string;
  first_name: string;
  last_name: string;
  avatar_file_id: string | null;
}

/** A company's memberships as its managers see them; every statement is scoped by the company. */
@Injectable()
export class MembersRepository {
  constructor(@InjectRepository(CompanyUserEntity) private readonly members: Repository<CompanyUserEntity>) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.members.manager.transaction(work);
  }

  /**
   * One page of the company's members, oldest first (the founder at the top): keyset on (created_at, id)
   * after `after`, an index range scan of IDX_company_users_company_joined; `search` keeps the members
   * whose email or name contains it. Each row also brings its keyset position.
   */
  async page(
    companyId: string,
    query: { search?: string; after?: Keyset; limit: number },
  ): Promise<Array<{ member: MemberView; keyset: Keyset }>> {
    const params: unknown[] = [companyId, query.limit];
    const where = ['cu.company_id = $1'];
    if (query.search) {
      params.push(likePattern(query.search));
      where.push(
        `(p.email LIKE $${params.length} OR lower(p.first_name || ' ' || p.last_name) LIKE $${params.length})`,
      );
    }
    if (query.after) {
      params.push(query.after.at, query.after.id);
      where.push(`(cu.created_at, cu.id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    const rows: MemberRow[] = await this.members.manager.query(
      `SELECT cu.id, cu.user_id, cu.role, cu.created_at, ${keysetAt('cu.created_at')} AS keyset_at,
         p.email, p.first_name, p.last_name, p.avatar_file_id
       FROM company_users cu JOIN profiles p ON p.id = cu.user_id
       WHERE ${where.join(' AND ')}
       ORDER BY cu.created_at, cu.id LIMIT $2`,
      params,
    );
    return rows.map((row) => ({
      member: {
        userId: row.user_id,
        name: personName({ firstName: row.first_name, lastName: row.last_name }),
        email: row.email,
        avatar: fileUrl(row.avatar_file_id),
        role: row.role,
        joinedAt: row.created_at.toISOString(),
      },
      keyset: { at: row.keyset_at, id: row.id },
    }));
  }

  async find(companyId: string, userId: string): Promise<MemberView | null> {
    const row = await this.members.findOne({ where: { companyId, userId }, relations: { user: true } });
    return row ? toMemberView(row) : null;
  }

  /**
   * Locks every membership of the company for the rest of the transaction and returns the roles: two
   * managers changing owners at once are serialised, so "at least one owner" holds.
   */
  async lockRoles(tx: EntityManager, companyId: string): Promise<Map<string, CompanyRole>> {
    const rows = await tx
      .getRepository(CompanyUserEntity)
      .createQueryBuilder('cu')
      .select(['cu.id', 'cu.userId', 'cu.role'])
      .where('cu.company_id = :companyId', { companyId })
      .orderBy('cu.id')
      .setLock('pessimistic_write')
      .getMany();
    return new Map(rows.map((r) => [r.userId, r.role]));
  }

  async setRole(tx: EntityManager, companyId: string, userId: string, role: CompanyRole): Promise<void> {
    await tx.getRepository(CompanyUserEntity).update({ companyId, userId }, { role });
  }

  async remove(tx: EntityManager, companyId: string, userId: string): Promise<void> {
    await tx.getRepository(CompanyUserEntity).delete({ companyId, userId });
  }

  /** Adds the membership unless the user already has one; returns the role they now hold and whether it is new. */
  async insertIfAbsent(
    tx: EntityManager,
    values: { companyId: string; userId: string; role: CompanyRole; invitedBy: string | null },
  ): Promise<{ role: CompanyRole; joined: boolean }> {
    const result = await tx
      .createQueryBuilder()
      .insert()
      .into(CompanyUserEntity)
      .values(values)
      .orIgnore()
      .returning(['id'])
      .execute();
    if (result.raw && (result.raw as unknown[]).length) return { role: values.role, joined: true };
    const existing = await tx
      .getRepository(CompanyUserEntity)
      .findOneByOrFail({ companyId: values.companyId, userId: values.userId });
    return { role: existing.role, joined: false };
  }

  count(companyId: string): Promise<number> {
    return this.members.countBy({ companyId });
  }
}
