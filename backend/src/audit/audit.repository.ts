import { Injectable } from '@nestjs/common';
import type { AuditAction, AuditEntryView, AuditPage } from '../contracts/audit';
import { isUuid } from '../common/uuid';
import { Database, type Tx } from '../database/database';
import type { AuditEntryEntity } from './audit-entry.entity';

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

/** An entry's columns, named as the entity's fields. */
const ENTRY_COLUMNS = `a.id, a.action, a.actor_id AS "actorId", a.actor_label AS "actorLabel", a.target_type AS "targetType",
  a.target_id AS "targetId", a.target_label AS "targetLabel", a.company_id AS "companyId",
  a.company_name AS "companyName", a.ip, a.details, a.created_at AS "createdAt"`;

export type NewAuditEntry = Omit<AuditEntryEntity, 'id' | 'createdAt'>;

/** The audit log: written by AuditService, read newest first by id cursor. */
@Injectable()
export class AuditRepository {
  constructor(private readonly db: Database) {}

  async insert(tx: Tx | undefined, entry: NewAuditEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO audit_log (action, actor_id, actor_label, target_type, target_id, target_label, company_id,
         company_name, ip, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        entry.action,
        entry.actorId,
        entry.actorLabel,
        entry.targetType,
        entry.targetId,
        entry.targetLabel,
        entry.companyId,
        entry.companyName,
        entry.ip,
        JSON.stringify(entry.details),
      ],
      tx,
    );
  }

  /** A user's email as it is now (the label an entry keeps); null when there is no such user. */
  async emailOf(userId: string | null, tx?: Tx): Promise<string | null> {
    if (!userId) return null;
    const rows: Array<{ email: string }> = await this.db.query(
      'SELECT email FROM profiles WHERE id = $1',
      [userId],
      tx,
    );
    return rows[0]?.email ?? null;
  }

  async companyNameOf(companyId: string, tx?: Tx): Promise<string | null> {
    const rows: Array<{ name: string }> = await this.db.query(
      'SELECT name FROM companies WHERE id = $1',
      [companyId],
      tx,
    );
    return rows[0]?.name ?? null;
  }

  async page(filter: AuditFilter): Promise<AuditPage> {
    const params: unknown[] = [filter.limit + 1];
    const where: string[] = [];
    const add = (condition: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (filter.action) add((n) => `a.action = ${n}`, filter.action);
    if (filter.companyId) add((n) => `a.company_id = ${n}`, filter.companyId);
    if (filter.before) add((n) => `a.id < ${n}`, filter.before);
    if (filter.actor) {
      if (isUuid(filter.actor)) add((n) => `a.actor_id = ${n}`, filter.actor);
      else add((n) => `lower(a.actor_label) LIKE ${n} ESCAPE '\\'`, likePrefix(filter.actor));
    }
    const rows: AuditEntryEntity[] = await this.db.query(
      `SELECT ${ENTRY_COLUMNS} FROM audit_log a ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY a.id DESC LIMIT $1`,
      params,
    );
    const more = rows.length > filter.limit;
    const entries = (more ? rows.slice(0, filter.limit) : rows).map(toAuditEntryView);
    return { entries, nextCursor: more ? entries[entries.length - 1].id : null };
  }
}
