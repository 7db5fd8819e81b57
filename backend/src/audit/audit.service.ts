import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { CompanyEntity } from '../companies/company.entity';
import type { AuditAction, AuditTargetType } from '../contracts/audit';
import { UserEntity } from '../profiles/user.entity';
import { AuditEntryEntity } from './audit-entry.entity';

/**
 * What a change records. Labels are what things were called at the time (the log outlives them). A
 * label left out (undefined) is read inside the transaction: the actor's and a user target's email, the
 * company's name. Pass `null` to record none.
 */
export interface AuditRecord {
  action: AuditAction;
  actor?: { id: string | null; label?: string | null } | null;
  target?: { type: AuditTargetType; id?: string | null; label?: string | null } | null;
  company?: { id: string; name?: string | null } | null;
  ip?: string | null;
  /** Small facts (old/new role, keys changed); never secrets or tokens. */
  details?: Record<string, unknown>;
}

/**
 * Writes audit entries. Always pass the EntityManager of the transaction that makes the change: the
 * entry commits with it or not at all.
 */
@Injectable()
export class AuditService {
  async record(manager: EntityManager, entry: AuditRecord): Promise<void> {
    const actorId = entry.actor?.id ?? null;
    const target = entry.target ?? null;
    const actorLabel = entry.actor?.label !== undefined ? entry.actor.label : await emailOf(manager, actorId);
    let targetLabel = target?.label ?? null;
    if (target?.type === 'user' && target.label === undefined)
      targetLabel =
        target.id && target.id === actorId ? actorLabel : await emailOf(manager, target.id ?? null);
    const companyName =
      entry.company && entry.company.name === undefined
        ? await companyNameOf(manager, entry.company.id)
        : (entry.company?.name ?? null);
    await manager.insert(AuditEntryEntity, {
      action: entry.action,
      actorId,
      actorLabel: clip(actorLabel, 320),
      targetType: target?.type ?? null,
      targetId: clip(target?.id, 64),
      targetLabel: clip(targetLabel, 320),
      companyId: entry.company?.id ?? null,
      companyName: clip(companyName, 200),
      ip: clip(displayIp(entry.ip), 64),
      details: (entry.details ?? {}) as QueryDeepPartialEntity<Record<string, unknown>>,
    });
  }
}

/**
 * An IPv4 client on a dual-stack socket reaches Express as '::ffff:203.0.113.7': the log shows the plain
 * IPv4 address an admin recognises.
 */
export function displayIp(ip: string | null | undefined): string | null | undefined {
  return ip?.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

async function emailOf(manager: EntityManager, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const user = await manager
    .getRepository(UserEntity)
    .findOne({ select: { id: true, email: true }, where: { id: userId } });
  return user?.email ?? null;
}

async function companyNameOf(manager: EntityManager, companyId: string): Promise<string | null> {
  const company = await manager
    .getRepository(CompanyEntity)
    .findOne({ select: { id: true, name: true }, where: { id: companyId } });
  return company?.name ?? null;
}

function clip(value: string | null | undefined, max: number): string | null {
  if (value === undefined || value === null) return null;
  return value.length > max ? value.slice(0, max) : value;
}
