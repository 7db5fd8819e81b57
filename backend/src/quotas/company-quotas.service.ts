import { Injectable } from '@nestjs/common';
import { PayloadTooLargeError } from '../common/domain-errors';
import type { CompanyQuotas, CompanyQuotaUsage } from '../contracts/company-quotas';
import type { Tx } from '../database/database';
import { CompanyQuotasRepository } from './company-quotas.repository';
import { MessageQuotaService } from './message-quota.service';

/** "20 MB", "1.5 GB": a byte count as the quota messages and pages show it. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 ? String(value) : String(Math.round(value * 10) / 10);
  return `${shown} ${units[unit]}`;
}

export const storedBytesQuotaReached = (limit: number, used: number): string =>
  `Your company's file storage is full: its limit is ${formatBytes(limit)} and ${formatBytes(used)} ` +
  `is used, so this file cannot be stored. Delete chats with files you no longer need, or ask your ` +
  `platform administrator to raise the limit.`;

/**
 * Company quotas: the one place their limits are read, checked and changed. A check that admits
 * something (an upload) runs in the caller's transaction with the company's quota row locked, so two
 * uploads on any nodes cannot both pass on the same room.
 */
@Injectable()
export class CompanyQuotasService {
  constructor(
    private readonly quotas: CompanyQuotasRepository,
    private readonly messages: MessageQuotaService,
  ) {}

  /** The limits with their use; `viewerId`: the member whose messages today to count (else null). */
  async usage(companyId: string, viewerId: string | null = null): Promise<CompanyQuotaUsage> {
    const [{ updatedAt: _updatedAt, ...limits }, storedBytesUsed, messages] = await Promise.all([
      this.quotas.limits(companyId),
      this.quotas.storedBytesUsed(companyId),
      this.messages.usage(companyId, viewerId),
    ]);
    return { ...limits, storedBytesUsed, ...messages };
  }

  /**
   * Admits `bytes` more stored bytes for the company, or refuses them (413 naming the limit). Call in
   * the transaction that records the reservation (files.reserved_bytes): the quota row stays locked
   * until it commits, so the next upload's check counts this one.
   */
  async reserveStoredBytes(tx: Tx, companyId: string, bytes: number): Promise<void> {
    const { storedBytesLimit } = await this.quotas.limits(companyId, tx, true);
    if (storedBytesLimit === null) return;
    const used = await this.quotas.storedBytesUsed(companyId, tx);
    if (used + bytes > storedBytesLimit)
      throw new PayloadTooLargeError(storedBytesQuotaReached(storedBytesLimit, used));
  }

  /** Changes the limits given (null: no limit); returns the limits before and after. */
  async set(
    tx: Tx,
    companyId: string,
    changes: Partial<CompanyQuotas>,
  ): Promise<{ before: CompanyQuotas; after: CompanyQuotas }> {
    const { updatedAt: _updatedAt, ...before } = await this.quotas.limits(companyId, tx, true);
    await this.quotas.setLimits(tx, companyId, changes);
    const after: CompanyQuotas = {
      storedBytesLimit:
        changes.storedBytesLimit === undefined ? before.storedBytesLimit : changes.storedBytesLimit,
      messagesPerUserPerDay:
        changes.messagesPerUserPerDay === undefined
          ? before.messagesPerUserPerDay
          : changes.messagesPerUserPerDay,
      messagesPerCompanyPerMonth:
        changes.messagesPerCompanyPerMonth === undefined
          ? before.messagesPerCompanyPerMonth
          : changes.messagesPerCompanyPerMonth,
    };
    return { before, after };
  }

  /** After the change committed: every process reads the company's limits again. */
  changed(companyId: string): Promise<void> {
    return this.messages.limitsChanged(companyId);
  }
}
