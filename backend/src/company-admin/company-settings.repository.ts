import { Injectable } from '@nestjs/common';
import type { PersonRef } from '../contracts/invitations';
import { Database } from '../database/database';
import { personName } from './require-manager';

export interface CompanyRecord {
  id: string;
  name: string;
  createdAt: string;
  owner: PersonRef | null;
}

/** The company row itself (name, owner) as Company Settings and Company Details read and change it. */
@Injectable()
export class CompanySettingsRepository {
  constructor(private readonly db: Database) {}

  /**
   * The owner shown is the company's recorded owner while they still are one, else its longest-standing
   * owner (owners can hand the company on, and a company may have several).
   */
  async find(companyId: string): Promise<CompanyRecord | null> {
    const rows: Array<{
      id: string;
      name: string;
      created_at: Date;
      owner_id: string | null;
      first_name: string | null;
      last_name: string | null;
    }> = await this.db.query(
      `SELECT c.id, c.name, c.created_at, o.user_id AS owner_id, o.first_name, o.last_name
       FROM companies c LEFT JOIN LATERAL (
         SELECT cu.user_id, p.first_name, p.last_name FROM company_users cu JOIN profiles p ON p.id = cu.user_id
         WHERE cu.company_id = c.id AND cu.role = 'owner'
         ORDER BY CASE WHEN cu.user_id = c.owner_id THEN 0 ELSE 1 END, cu.created_at LIMIT 1
       ) o ON true
       WHERE c.id = $1`,
      [companyId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      createdAt: row.created_at.toISOString(),
      owner: row.owner_id
        ? {
            id: row.owner_id,
            name: personName({ firstName: row.first_name ?? '', lastName: row.last_name ?? '' }),
          }
        : null,
    };
  }

  async rename(companyId: string, name: string): Promise<void> {
    await this.db.query('UPDATE companies SET name = $2 WHERE id = $1', [companyId, name]);
  }
}
