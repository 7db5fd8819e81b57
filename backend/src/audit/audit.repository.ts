import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { AuditAction, AuditEntryView, AuditPage } from '../contracts/audit';
import { isUuid } from '../common/uuid';
import { AuditEntryEntity } from './audit-entry.entity';

export interface AuditFilter {
  action?: AuditAction;
  /** An actor's user id, or the start of the email they acted as (any case). */
  actor?: string;
  companyId?: string;
  /** Entries older than this id (the previous page's `nextCursor`). */
  before?: string;
  limit: number;
}

export function toAuditEntryView(row: AuditEntryEntity): AuditEntryView {
  return {
    id: row.id,
    action: row.action,
    actor: row.actorId || row.actorLabel ? { id: row.actorId, label: row.actorLabel } : null,
    target: row.targetType ? { type: row.targetType, id: row.targetId, label: row.targetLabel } : null,
    company: row.companyId ? { id: row.companyId, name: row.companyName } : null,
    ip: row.ip,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  };
}

/** `%`, `_` and `\` in a typed prefix are letters, not LIKE wildcards. */
function likePrefix(text: string): string {
  return `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Reads the audit log, newest first, by id cursor (the writes go through AuditService). */
@Injectable()
export class AuditRepository {
  constructor(@InjectRepository(AuditEntryEntity) private readonly entries: Repository<AuditEntryEntity>) {}

  async page(filter: AuditFilter): Promise<AuditPage> {
    const query = this.entries
      .createQueryBuilder('a')
      .orderBy('a.id', 'DESC')
      .limit(filter.limit + 1);
    if (filter.action) query.andWhere('a.action = :action', { action: filter.action });
    if (filter.companyId) query.andWhere('a.company_id = :companyId', { companyId: filter.companyId });
    if (filter.before) query.andWhere('a.id < :before', { before: filter.before });
    if (filter.actor) {
      if (isUuid(filter.actor)) query.andWhere('a.actor_id = :actorId', { actorId: filter.actor });
      else
        query.andWhere(`lower(a.actor_label) LIKE :actorLabel ESCAPE '\\'`, {
          actorLabel: likePrefix(filter.actor),
        });
    }
    const rows = await query.getMany();
    const more = rows.length > filter.limit;
    const entries = (more ? rows.slice(0, filter.limit) : rows).map(toAuditEntryView);
    return { entries, nextCursor: more ? entries[entries.length - 1].id : null };
  }
}
