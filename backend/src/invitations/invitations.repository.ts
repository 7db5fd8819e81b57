import { Injectable } from '@nestjs/common';
import { ConflictError } from '../common/domain-errors';
import { personName } from '../company-admin/require-manager';
import type { InvitationStatus, InvitationView } from '../contracts/invitations';
import { Database, type Tx } from '../database/database';
import type { InvitationEntity } from './invitation.entity';

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

/** An invitation row's columns (table `i`), named as the entity's fields. */
const INVITATION_COLUMNS = `i.id, i.company_id AS "companyId", i.email, i.role, i.status, i.token_hash AS "tokenHash",
  i.token_sealed AS "tokenSealed", i.mail_token_hash AS "mailTokenHash", i.invited_by AS "invitedBy",
  i.expires_at AS "expiresAt", i.accepted_at AS "acceptedAt", i.created_at AS "createdAt"`;

/** The invitation with its inviter (null when gone) and its company's name joined. */
const JOINED_SQL = `SELECT ${INVITATION_COLUMNS}, u.first_name AS "inviterFirstName", u.last_name AS "inviterLastName",
  c.name AS "companyName"
  FROM company_invitations i LEFT JOIN profiles u ON u.id = i.invited_by JOIN companies c ON c.id = i.company_id`;

type JoinedRow = InvitationEntity & {
  inviterFirstName: string | null;
  inviterLastName: string | null;
  companyName: string;
};

function joined(row: JoinedRow): InvitationEntity {
  const { inviterFirstName, inviterLastName, companyName, ...invitation } = row;
  return {
    ...invitation,
    inviter:
      invitation.invitedBy && inviterFirstName !== null
        ? ({
            id: invitation.invitedBy,
            firstName: inviterFirstName,
            lastName: inviterLastName ?? '',
          } as InvitationEntity['inviter'])
        : null,
    company: { id: invitation.companyId, name: companyName } as InvitationEntity['company'],
  };
}

/** Invitation rows: every statement a manager causes is scoped by company; the public ones go by token hash. */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly db: Database) {}

  private async joinedWhere(
    where: string,
    params: unknown[],
    tx?: Tx,
    order = '',
  ): Promise<InvitationEntity[]> {
    const rows: JoinedRow[] = await this.db.query(`${JOINED_SQL} WHERE ${where} ${order}`, params, tx);
    return rows.map(joined);
  }

  /** Newest first, inviter joined. */
  list(companyId: string): Promise<InvitationEntity[]> {
    return this.joinedWhere(
      'i.company_id = $1',
      [companyId],
      undefined,
      'ORDER BY i.created_at DESC, i.id DESC',
    );
  }

  async findInCompany(companyId: string, id: string, tx?: Tx): Promise<InvitationEntity | null> {
    return (await this.joinedWhere('i.id = $1 AND i.company_id = $2', [id, companyId], tx))[0] ?? null;
  }

  findManyInCompany(companyId: string, ids: string[]): Promise<InvitationEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.joinedWhere('i.company_id = $1 AND i.id = ANY($2::uuid[])', [companyId, ids]);
  }

  /** The row, locked for the rest of the transaction (no joins: the inviter may be gone). */
  async lock(tx: Tx, where: { id: string; companyId?: string }): Promise<InvitationEntity | null> {
    const rows: InvitationEntity[] = await this.db.query(
      `SELECT ${INVITATION_COLUMNS} FROM company_invitations i
       WHERE i.id = $1 AND ($2::uuid IS NULL OR i.company_id = $2::uuid) FOR UPDATE`,
      [where.id, where.companyId ?? null],
      tx,
    );
    return rows[0] ?? null;
  }

  /**
   * For the invitation page: the row whose link token or mail token has this hash, the company and the
   * inviter joined. `mailed`: it was the mail's token (the follower read mail sent to the address).
   */
  async findByTokenHash(hash: string): Promise<{ row: InvitationEntity; mailed: boolean } | null> {
    const [row] = await this.joinedWhere('(i.token_hash = $1 OR i.mail_token_hash = $1)', [hash]);
    return row ? { row, mailed: row.mailTokenHash === hash } : null;
  }

  /**
   * Stores the spec's "expired on load": pending rows past their expiry become expired (and lose their
   * sealed token). Returns the ids changed. With `email`, only that address's rows.
   */
  async expireStale(companyId: string, now: Date, tx?: Tx, email?: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `UPDATE company_invitations SET status = 'expired', token_sealed = NULL
       WHERE company_id = $1 AND status = 'pending' AND expires_at <= $2 AND ($3::text IS NULL OR email = $3)
       RETURNING id`,
      [companyId, now, email ?? null],
      tx,
    );
    return rows.map((r) => r.id);
  }

  /**
   * A new pending invitation; 409 when the address already has a pending one in the company (checked
   * first, and by the partial unique index when two managers invite at once).
   */
  async insert(
    tx: Tx,
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
    const pending = await this.db.query(
      `SELECT 1 FROM company_invitations WHERE company_id = $1 AND email = $2 AND status = 'pending'`,
      [values.companyId, values.email],
      tx,
    );
    if (pending.length) throw new ConflictError(INVITATION_PENDING_ALREADY);
    try {
      const rows: Array<{ id: string }> = await this.db.query(
        `INSERT INTO company_invitations (company_id, email, role, status, token_hash, token_sealed, mail_token_hash,
           invited_by, expires_at, accepted_at)
         VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, NULL) RETURNING id`,
        [
          values.companyId,
          values.email,
          values.role,
          values.tokenHash,
          values.tokenSealed,
          values.mailTokenHash,
          values.invitedBy,
          values.expiresAt,
        ],
        tx,
      );
      return rows[0].id;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(INVITATION_PENDING_ALREADY);
      throw error;
    }
  }

  /** A new token and expiry for a pending invitation: the old token no longer matches any row. */
  async reissue(
    tx: Tx,
    id: string,
    values: { tokenHash: string; tokenSealed: string; mailTokenHash: string; expiresAt: Date },
  ): Promise<void> {
    await this.db.query(
      `UPDATE company_invitations SET token_hash = $2, token_sealed = $3, mail_token_hash = $4, expires_at = $5
       WHERE id = $1 AND status = 'pending'`,
      [id, values.tokenHash, values.tokenSealed, values.mailTokenHash, values.expiresAt],
      tx,
    );
  }

  async markAccepted(tx: Tx, id: string, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE company_invitations SET status = 'accepted', accepted_at = $2, token_sealed = NULL
       WHERE id = $1 AND status = 'pending'`,
      [id, now],
      tx,
    );
  }

  async remove(tx: Tx, companyId: string, id: string): Promise<void> {
    await this.db.query(
      'DELETE FROM company_invitations WHERE id = $1 AND company_id = $2',
      [id, companyId],
      tx,
    );
  }
}
