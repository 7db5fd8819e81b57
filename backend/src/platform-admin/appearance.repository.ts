import { Injectable } from '@nestjs/common';
import type { ColorSettings } from '../contracts/platform-appearance';
import type { AdminSettingsEntity } from './admin-settings.entity';
import { Database, type Tx } from '../database/database';

/** The one row of admin_settings. */
const ROW_ID = 1;

/** The `files.purpose` of uploaded logos and favicons. */
export const ASSET_PURPOSES = { logo: 'platform-logo', favicon: 'platform-favicon' } as const;
export type AssetKind = keyof typeof ASSET_PURPOSES;

/** An upload that no saved setting names is kept this long (an admin may still be about to save it). */
const UNUSED_UPLOAD_GRACE = '1 hour';

export interface AppearanceChanges {
  logoUrl?: string | null;
  faviconUrl?: string | null;
  accentColor?: string;
  colorSettings?: ColorSettings;
}

/** The row's columns, named as the entity's fields. */
const COLUMNS = `id, logo_url AS "logoUrl", favicon_url AS "faviconUrl", accent_color AS "accentColor",
  color_settings AS "colorSettings", updated_by AS "updatedBy", updated_at AS "updatedAt"`;

const CHANGE_COLUMNS: Record<keyof AppearanceChanges, string> = {
  logoUrl: 'logo_url',
  faviconUrl: 'favicon_url',
  accentColor: 'accent_color',
  colorSettings: 'color_settings',
};

@Injectable()
export class AppearanceRepository {
  constructor(private readonly db: Database) {}

  /** null until a superadmin first saves (the defaults apply). */
  async find(): Promise<AdminSettingsEntity | null> {
    const rows: AdminSettingsEntity[] = await this.db.query(
      `SELECT ${COLUMNS} FROM admin_settings WHERE id = $1`,
      [ROW_ID],
    );
    return rows[0] ?? null;
  }

  /**
   * The row, made if missing, locked for the rest of the transaction: two saves at once are serialised,
   * so each one's audit entry lists what it really changed.
   */
  async lock(tx: Tx): Promise<AdminSettingsEntity> {
    await this.db.query(
      'INSERT INTO admin_settings (id) VALUES ($1) ON CONFLICT (id) DO NOTHING',
      [ROW_ID],
      tx,
    );
    const rows: AdminSettingsEntity[] = await this.db.query(
      `SELECT ${COLUMNS} FROM admin_settings WHERE id = $1 FOR UPDATE`,
      [ROW_ID],
      tx,
    );
    return rows[0];
  }

  /** Sets the changes given (a key left out keeps its value) and returns the row as saved. */
  async update(tx: Tx, changes: AppearanceChanges, updatedBy: string): Promise<AdminSettingsEntity> {
    const params: unknown[] = [ROW_ID, updatedBy];
    const sets = ['updated_by = $2', 'updated_at = now()'];
    for (const [key, column] of Object.entries(CHANGE_COLUMNS)) {
      const value = changes[key as keyof AppearanceChanges];
      if (value === undefined) continue;
      params.push(key === 'colorSettings' && value !== null ? JSON.stringify(value) : value);
      sets.push(`${column} = $${params.length}`);
    }
    const rows: AdminSettingsEntity[] = await this.db.query(
      `UPDATE admin_settings SET ${sets.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`,
      params,
      tx,
    );
    return rows[0];
  }

  /** Whether a stored file exists (a saved address naming an upload must still have it). */
  async fileExists(tx: Tx, id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query('SELECT 1 FROM files WHERE id = $1', [id], tx);
    return rows.length > 0;
  }

  /**
   * Drops uploaded logos and favicons that no setting names any more: the one just replaced at once,
   * uploads never saved after a grace period.
   */
  async removeUnusedUploads(tx: Tx, replaced: string[], inUse: string[]): Promise<void> {
    const purposes = Object.values(ASSET_PURPOSES);
    await this.db.query(
      `DELETE FROM files
        WHERE purpose = ANY($1)
          AND NOT (id = ANY($3::uuid[]))
          AND (id = ANY($2::uuid[]) OR created_at < now() - $4::interval)`,
      [purposes, replaced, inUse, UNUSED_UPLOAD_GRACE],
      tx,
    );
  }
}
