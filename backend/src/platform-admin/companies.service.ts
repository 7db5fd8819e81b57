import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { ForbiddenError, NotFoundError, ValidationFailedError } from '../common/domain-errors';
import { isUuid } from '../common/uuid';
import { CompaniesService } from '../companies/companies.service';
import {
  PLATFORM_PAGE_SIZE,
  type CreatePlatformCompanyRequest,
  type PlatformCompanyDetails,
  type PlatformCompanyMemberView,
  type PlatformCompanyPage,
} from '../contracts/platform-admin';
import { normalizeEmail } from '../profiles/users.service';
import {
  companyManagersRoom,
  companyRoom,
  RealtimePublisher,
  userRoom,
} from '../realtime/realtime-publisher';
import { PlatformCompaniesRepository } from './companies.repository';
import { SUPERADMIN_REQUIRED } from './superadmin.guard';
import { PlatformUsersRepository } from './users.repository';
import { type AdminActor, decodeCursor, encodeCursor, INVALID_CURSOR } from './users.service';
import { Database } from '../database/database';
import type { CompanyQuotaUsage, UpdateCompanyQuotasRequest } from '../contracts/company-quotas';
import { CompanyQuotasService } from '../quotas/company-quotas.service';
import { AttachmentsService } from '../files/attachments.service';

export const COMPANY_NOT_FOUND = 'Company not found';
export const NO_USER_WITH_EMAIL = 'No user with that email';
export const OWNER_DISABLED = 'That account has been disabled: enable it before making it an owner.';

/**
 * Company Management: every company of the installation. Superadmins only. Creating one makes an
 * existing account its owner; deleting one removes everything it owns in one transaction, and its
 * members' open pages switch to another company of theirs at once.
 */
@Injectable()
export class PlatformCompaniesService {
  constructor(
    private readonly database: Database,
    private readonly companies: PlatformCompaniesRepository,
    private readonly users: PlatformUsersRepository,
    private readonly companyCreation: CompaniesService,
    private readonly realtime: RealtimePublisher,
    private readonly audit: AuditService,
    private readonly quotas: CompanyQuotasService,
    private readonly attachments: AttachmentsService,
  ) {}

  async list(query: { search?: string; cursor?: string; limit?: number }): Promise<PlatformCompanyPage> {
    const limit = query.limit ?? PLATFORM_PAGE_SIZE;
    const search = query.search?.trim() || undefined;
    const after = parseTimeCursor(decodeCursor(query.cursor));
    const rows = await this.companies.page({ search, after, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      companies: page.map(({ cursorKey: _cursorKey, ...view }) => view),
      nextCursor: rows.length > limit && last ? encodeCursor(`${last.cursorKey}|${last.id}`) : null,
    };
  }

  async create(actor: AdminActor, input: CreatePlatformCompanyRequest): Promise<PlatformCompanyDetails> {
    const owner = await this.users.findByEmail(normalizeEmail(input.ownerEmail));
    if (!owner) throw new NotFoundError(NO_USER_WITH_EMAIL);
    if (owner.disabled) throw new ValidationFailedError(OWNER_DISABLED);
    const company = await this.database.transaction(async (tx) => {
      if (!(await this.users.isActiveSuperadmin(tx, actor.user.id)))
        throw new ForbiddenError(SUPERADMIN_REQUIRED);
      const created = await this.companyCreation.createWithOwner(owner.id, input.name, tx);
      await this.audit.record(tx, {
        action: 'company.created',
        actor: { id: actor.user.id },
        target: { type: 'company', id: created.id, label: created.name },
        company: { id: created.id, name: created.name },
        ip: actor.ip,
        details: { via: 'platform_admin', owner: owner.email },
      });
      return created;
    });
    // The owner's open pages get the company's events from now on (their list shows it on next load).
    this.realtime.joinRooms(owner.id, [companyRoom(company.id), companyManagersRoom(company.id)]);
    return this.details(company.id);
  }

  async details(companyId: string): Promise<PlatformCompanyDetails> {
    const details = await this.companies.details(companyId);
    if (!details) throw new NotFoundError(COMPANY_NOT_FOUND);
    return { ...details, quotas: await this.quotas.usage(companyId) };
  }

  /** Sets the company's quotas (a limit left out stays; null removes it), audited with before and after. */
  async setQuotas(
    actor: AdminActor,
    companyId: string,
    changes: UpdateCompanyQuotasRequest,
  ): Promise<CompanyQuotaUsage> {
    await this.database.transaction(async (tx) => {
      if (!(await this.users.isActiveSuperadmin(tx, actor.user.id)))
        throw new ForbiddenError(SUPERADMIN_REQUIRED);
      const name = await this.companies.lockName(tx, companyId);
      if (name === null) throw new NotFoundError(COMPANY_NOT_FOUND);
      const { before, after } = await this.quotas.set(tx, companyId, changes);
      await this.audit.record(tx, {
        action: 'company.quotas_updated',
        actor: { id: actor.user.id },
        target: { type: 'company', id: companyId, label: name },
        company: { id: companyId, name },
        ip: actor.ip,
        details: { before, after },
      });
    });
    await this.quotas.changed(companyId);
    return this.quotas.usage(companyId);
  }

  async members(companyId: string): Promise<PlatformCompanyMemberView[]> {
    if (!(await this.companies.exists(companyId))) throw new NotFoundError(COMPANY_NOT_FOUND);
    return this.companies.members(companyId);
  }

  async remove(actor: AdminActor, companyId: string): Promise<void> {
    const removed = await this.database.transaction(async (tx) => {
      if (!(await this.users.isActiveSuperadmin(tx, actor.user.id)))
        throw new ForbiddenError(SUPERADMIN_REQUIRED);
      const files = await this.attachments.removalSummary(tx, { companyId });
      const removal = await this.companies.remove(tx, companyId);
      if (!removal) throw new NotFoundError(COMPANY_NOT_FOUND);
      await this.audit.record(tx, {
        action: 'company.deleted',
        actor: { id: actor.user.id },
        target: { type: 'company', id: companyId, label: removal.name },
        company: { id: companyId, name: removal.name },
        ip: actor.ip,
        details: { ...removal.counts, files: files.files, fileBytes: files.bytes },
      });
      return { ...removal, externalFileIds: files.externalIds };
    });
    // The files' rows went with the company; their bytes in the bucket go now.
    await this.attachments.removeExternal(removed.externalFileIds);
    // Access ends now: every member's sockets leave the company's rooms, then each member is told (on
    // their own user room, which they stay in) so their open pages switch to another company.
    for (const userId of removed.memberIds)
      this.realtime.leaveRooms(userId, [companyRoom(companyId), companyManagersRoom(companyId)]);
    if (removed.memberIds.length)
      this.realtime.toRoom(removed.memberIds.map(userRoom), 'company.deleted', { companyId });
  }
}

const PG_TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/** created_at as PostgreSQL printed it (exact to the microsecond), checked so the cast cannot fail. */
export function isPgTimestamp(value: string): boolean {
  const m = PG_TIMESTAMPTZ.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

/** `<created_at>|<id>` of the last row of the previous page. */
export function parseTimeCursor(value: string | undefined): { createdKey: string; id: string } | undefined {
  if (value === undefined) return undefined;
  const separator = value.lastIndexOf('|');
  const createdKey = value.slice(0, separator);
  const id = value.slice(separator + 1);
  if (separator < 1 || !isUuid(id) || !isPgTimestamp(createdKey))
    throw new ValidationFailedError(INVALID_CURSOR);
  return { createdKey, id };
}
