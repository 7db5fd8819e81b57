import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, LessThanOrEqual, type Repository } from 'typeorm';
import { ConflictError } from '../common/domain-errors';
import { personName } from '../company-admin/require-manager';
import type { InvitationStatus, InvitationView } from '../contracts/invitations';
import { InvitationEntity } from './invitation.entity';

export const INVITATION_PENDING_ALREADY =
  'This email already has a pending invitation to this company. Resend or delete it instead.';

/** A pending invitation whose expiry has passed is expired, whether or not the row says so yet. */
export function effectiveStatus(row: InvitationEntity, now = new Date()): InvitationStatus {
  return row.status === 'pending' && row.expiresAt.getTime() <= now.getTime() ? 'expired' : row.status;
}

export function toInvitationView(row: InvitationEntity, now = new Date()): InvitationView {
  return {
    id: row.id,
    companyId: row.companyId,
    email: row.email,
    role: row.role,
    status: effectiveStatus(row, now),
    invitedBy: row.inviter ? { id: row.inviter.id, name: personName(row.inviter) } : null,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { driverError?: { code?: string } })?.driverError?.code === '23505';
}

/** Invitation rows: every statement a manager causes is scoped by company; the public ones go by token hash. */
@Injectable()
export class InvitationsRepository {
  constructor(
    @InjectRepository(InvitationEntity) private readonly invitations: Repository<InvitationEntity>,
  ) {}

  /** Newest first, inviter joined. */
  list(companyId: string): Promise<InvitationEntity[]> {
    return this.invitations.find({
      where: { companyId },
      relations: { inviter: true },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  findInCompany(companyId: string, id: string, tx?: EntityManager): Promise<InvitationEntity | null> {
    const repo = tx ? tx.getRepository(InvitationEntity) : this.invitations;
    return repo.findOne({ where: { id, companyId }, relations: { inviter: true } });
  }

  findManyInCompany(companyId: string, ids: string[]): Promise<InvitationEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.invitations.find({ where: { companyId, id: In(ids) }, relations: { inviter: true } });
  }

  /** The row, locked for the rest of the transaction (no relations: outer joins cannot be locked). */
  lock(tx: EntityManager, where: { id: string; companyId?: string }): Promise<InvitationEntity | null> {
    return tx.getRepository(InvitationEntity).findOne({ where, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * For the invitation page: the row whose link token or mail token has this hash, the company and the
   * inviter joined. `mailed`: it was the mail's token (the follower read mail sent to the address).
   */
  async findByTokenHash(hash: string): Promise<{ row: InvitationEntity; mailed: boolean } | null> {
    const row = await this.invitations.findOne({
      where: [{ tokenHash: hash }, { mailTokenHash: hash }],
      relations: { company: true, inviter: true },
    });
    return row ? { row, mailed: row.mailTokenHash === hash } : null;
  }

  /**
   * Stores the spec's "expired on load": pending rows past their expiry become expired (and lose their
   * sealed token). Returns the ids changed. With `email`, only that address's rows.
   */
  async expireStale(companyId: string, now: Date, tx?: EntityManager, email?: string): Promise<string[]> {
    const repo = tx ? tx.getRepository(InvitationEntity) : this.invitations;
    const result = await repo
      .createQueryBuilder()
      .update(InvitationEntity)
      .set({ status: 'expired', tokenSealed: null })
      .where({
        companyId,
        status: 'pending',
        expiresAt: LessThanOrEqual(now),
        ...(email ? { email } : {}),
      })
      .returning(['id'])
      .execute();
    return ((result.raw ?? []) as Array<{ id: string }>).map((r) => r.id);
  }

  /**
   * A new pending invitation; 409 when the address already has a pending one in the company (checked
   * first, and by the partial unique index when two managers invite at once).
   */
  async insert(
    tx: EntityManager,
    values: Pick<
      InvitationEntity,
      | 'companyId'
      | 'email'
      | 'role'
      | 'tokenHash'
      | 'tokenSealed'
      | 'mailTokenHash'
      | 'invitedBy'
      | 'expiresAt'
    >,
  ): Promise<string> {
    const repo = tx.getRepository(InvitationEntity);
    const pending = await repo.existsBy({
      companyId: values.companyId,
      email: values.email,
      status: 'pending',
    });
    if (pending) throw new ConflictError(INVITATION_PENDING_ALREADY);
    try {
      const row = await repo.save(repo.create({ ...values, status: 'pending', acceptedAt: null }));
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(INVITATION_PENDING_ALREADY);
      throw error;
    }
  }

  /** A new token and expiry for a pending invitation: the old token no longer matches any row. */
  async reissue(
    tx: EntityManager,
    id: string,
    values: { tokenHash: string; tokenSealed: string; mailTokenHash: string; expiresAt: Date },
  ): Promise<void> {
    await tx.getRepository(InvitationEntity).update({ id, status: 'pending' }, values);
  }

  async markAccepted(tx: EntityManager, id: string, now: Date): Promise<void> {
    await tx
      .getRepository(InvitationEntity)
      .update({ id, status: 'pending' }, { status: 'accepted', acceptedAt: now, tokenSealed: null });
  }

  async remove(tx: EntityManager, companyId: string, id: string): Promise<void> {
    await tx.getRepository(InvitationEntity).delete({ id, companyId });
  }
}
