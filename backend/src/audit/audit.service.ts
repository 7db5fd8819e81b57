import { Injectable } from '@nestjs/common';
import type { AuditAction, AuditTargetType } from '../contracts/audit';
import type { Tx } from '../database/database';
import { AuditRepository } from './audit.repository';

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
 * Writes audit entries. Always pass the transaction that makes the change: the entry commits with it or
 * not at all. `null` only for an entry that records no change (a refused sign-in): it commits alone.
 */
@Injectable()
export class AuditService {
  constructor(private readonly entries: AuditRepository) {}

  async record(tx: Tx | null, entry: AuditRecord): Promise<void> {
    const inTx = tx ?? undefined;
    const actorId = entry.actor?.id ?? null;
    const target = entry.target ?? null;
    const actorLabel =
      entry.actor?.label !== undefined ? entry.actor.label : await this.entries.emailOf(actorId, inTx);
    let targetLabel = target?.label ?? null;
    if (target?.type === 'user' && target.label === undefined)
      targetLabel =
        target.id && target.id === actorId ? actorLabel : await this.entries.emailOf(target.id ?? null, inTx);
    const companyName =
      entry.company && entry.company.name === undefined
        ? await this.entries.companyNameOf(entry.company.id, inTx)
        : (entry.company?.name ?? null);
    await this.entries.insert(inTx, {
      action: entry.action,
      actorId,
      actorLabel: clip(actorLabel, 320),
      targetType: target?.type ?? null,
      targetId: clip(target?.id, 64),
      targetLabel: clip(targetLabel, 320),
      companyId: entry.company?.id ?? null,
      companyName: clip(companyName, 200),
      ip: clip(displayIp(entry.ip), 64),
      details: entry.details ?? {},
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

function clip(value: string | null | undefined, max: number): string | null {
  if (value === undefined || value === null) return null;
  return value.length > max ? value.slice(0, max) : value;
}
