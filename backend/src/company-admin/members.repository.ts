import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { CompanyUserEntity } from '../companies/company-user.entity';
import type { CompanyRole } from '../contracts/companies';
import type { MemberView } from '../contracts/company-admin';
import { fileUrl } from '../files/files.service';
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

/** A company's memberships as its managers see them; every statement is scoped by the company. */
@Injectable()
export class MembersRepository {
  constructor(@InjectRepository(CompanyUserEntity) private readonly members: Repository<CompanyUserEntity>) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.members.manager.transaction(work);
  }

  /** Oldest member first (the founder at the top). */
  async list(companyId: string): Promise<MemberView[]> {
    const rows = await this.members.find({
      where: { companyId },
      relations: { user: true },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map(toMemberView);
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
