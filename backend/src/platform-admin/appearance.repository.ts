import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { ColorSettings } from '../contracts/platform-appearance';
import { AdminSettingsEntity } from './admin-settings.entity';

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

@Injectable()
export class AppearanceRepository {
  constructor(
    @InjectRepository(AdminSettingsEntity) private readonly settings: Repository<AdminSettingsEntity>,
  ) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.settings.manager.transaction(work);
  }

  /** null until a superadmin first saves (the defaults apply). */
  find(): Promise<AdminSettingsEntity | null> {
    return this.settings.findOneBy({ id: ROW_ID });
  }

  /**
   * The row, made if missing, locked for the rest of the transaction: two saves at once are serialised,
   * so each one's audit entry lists what it really changed.
   */
  async lock(tx: EntityManager): Promise<AdminSettingsEntity> {
    await tx.query('INSERT INTO admin_settings (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [ROW_ID]);
    return tx.getRepository(AdminSettingsEntity).findOneOrFail({
      where: { id: ROW_ID },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async update(
    tx: EntityManager,
    changes: AppearanceChanges,
    updatedBy: string,
  ): Promise<AdminSettingsEntity> {
    const repo = tx.getRepository(AdminSettingsEntity);
    await repo.update({ id: ROW_ID }, { ...changes, updatedBy });
    return repo.findOneByOrFail({ id: ROW_ID });
  }

  /** Whether a stored file exists (a saved address naming an upload must still have it). */
  async fileExists(tx: EntityManager, id: string): Promise<boolean> {
    const rows: unknown[] = await tx.query('SELECT 1 FROM files WHERE id = $1', [id]);
    return rows.length > 0;
  }

  /**
   * Drops uploaded logos and favicons that no setting names any more: the one just replaced at once,
   * uploads never saved after a grace period.
   */
  async removeUnusedUploads(tx: EntityManager, replaced: string[], inUse: string[]): Promise<void> {
    const purposes = Object.values(ASSET_PURPOSES);
    await tx.query(
      `DELETE FROM files
        WHERE purpose = ANY($1)
          AND NOT (id = ANY($3::uuid[]))
          AND (id = ANY($2::uuid[]) OR created_at < now() - $4::interval)`,
      [purposes, replaced, inUse, UNUSED_UPLOAD_GRACE],
    );
  }
}
