import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { AuthUser } from '../common/current-user.decorator';
import { ForbiddenError, ValidationFailedError } from '../common/domain-errors';
import {
  type ColorSettings,
  DEFAULT_ACCENT_COLOR,
  type PlatformAppearance,
  type UpdatePlatformSettingsRequest,
} from '../contracts/platform-appearance';
import { FilesService, fileUrl } from '../files/files.service';
import { RealtimePublisher } from '../realtime/realtime-publisher';
import type { AdminSettingsEntity } from './admin-settings.entity';
import {
  changedColorKeys,
  effectiveColors,
  normalizeColorSettings,
  withAccentAsPrimary,
} from './appearance.colors';
import { encodeFavicon, encodeLogo } from './appearance.images';
import {
  ASSET_PURPOSES,
  type AppearanceChanges,
  AppearanceRepository,
  type AssetKind,
} from './appearance.repository';
import { normalizeAssetUrl, uploadedFileId } from './appearance.validation';
import { SUPERADMIN_REQUIRED } from './superadmin.guard';
import { Database, type Tx } from '../database/database';

export const UPLOAD_GONE = {
  logoUrl: 'The uploaded logo is no longer available. Please upload it again.',
  faviconUrl: 'The uploaded favicon is no longer available. Please upload it again.',
} as const;

/** Who saves, and from where (for the audit log). */
export interface AppearanceActor {
  user: AuthUser;
  ip: string | null;
}

export function toAppearance(row: AdminSettingsEntity | null): PlatformAppearance {
  return {
    logoUrl: row?.logoUrl ?? null,
    faviconUrl: row?.faviconUrl ?? null,
    accentColor: row?.accentColor ?? DEFAULT_ACCENT_COLOR,
    colors: effectiveColors(row?.colorSettings ?? null),
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

/**
 * The installation's branding (logo, favicon, accent colour) and the two colour palettes. Anyone may
 * read them (the sign-in page shows them); superadmins change them. Each change is one transaction with
 * its audit entry, then every signed-in browser gets the whole new appearance (platform room).
 */
@Injectable()
export class AppearanceService {
  constructor(
    private readonly database: Database,
    private readonly settings: AppearanceRepository,
    private readonly files: FilesService,
    private readonly audit: AuditService,
    private readonly realtime: RealtimePublisher,
  ) {}

  async get(): Promise<PlatformAppearance> {
    return toAppearance(await this.settings.find());
  }

  async updateSettings(
    actor: AppearanceActor,
    input: UpdatePlatformSettingsRequest,
  ): Promise<PlatformAppearance> {
    requireSuperadmin(actor.user);
    const next = {
      logoUrl: normalizeAssetUrl(input.logoUrl),
      faviconUrl: normalizeAssetUrl(input.faviconUrl),
      accentColor: input.accentColor.toLowerCase(),
    };
    const saved = await this.database.transaction(async (tx) => {
      const row = await this.settings.lock(tx);
      const changes: AppearanceChanges = {};
      const changed: string[] = [];
      for (const field of ['logoUrl', 'faviconUrl'] as const) {
        if (next[field] === row[field]) continue;
        const fileId = uploadedFileId(next[field]);
        if (fileId && !(await this.settings.fileExists(tx, fileId)))
          throw new ValidationFailedError(UPLOAD_GONE[field]);
        changes[field] = next[field];
        changed.push(field);
      }
      if (next.accentColor !== row.accentColor.toLowerCase()) {
        changes.accentColor = next.accentColor;
        changes.colorSettings = withAccentAsPrimary(effectiveColors(row.colorSettings), next.accentColor);
        changed.push('accentColor');
      }
      const updated = await this.settings.update(tx, changes, actor.user.id);
      await this.audit.record(tx, {
        action: 'settings.updated',
        actor: { id: actor.user.id },
        target: { type: 'settings', id: 'application', label: 'Application Settings' },
        ip: actor.ip,
        details: { changed },
      });
      await this.dropUnusedUploads(tx, row, updated);
      return updated;
    });
    return this.publish(saved);
  }

  async updateColors(actor: AppearanceActor, input: ColorSettings): Promise<PlatformAppearance> {
    requireSuperadmin(actor.user);
    const colors = normalizeColorSettings(input);
    const saved = await this.database.transaction(async (tx) => {
      const row = await this.settings.lock(tx);
      const changed = changedColorKeys(effectiveColors(row.colorSettings), colors);
      const updated = await this.settings.update(tx, { colorSettings: colors }, actor.user.id);
      await this.audit.record(tx, {
        action: 'colors.updated',
        actor: { id: actor.user.id },
        target: { type: 'settings', id: 'colors', label: 'Color Settings' },
        ip: actor.ip,
        details: { changed },
      });
      return updated;
    });
    return this.publish(saved);
  }

  /**
   * Stores an uploaded logo or favicon (re-encoded) and answers its address, for the form: nothing
   * changes for anyone until the settings are saved with it.
   */
  async upload(user: AuthUser, kind: AssetKind, data: Buffer): Promise<{ url: string }> {
    requireSuperadmin(user);
    const encoded = kind === 'logo' ? await encodeLogo(data) : await encodeFavicon(data);
    const id = await this.files.storeEncoded(user.id, encoded, ASSET_PURPOSES[kind], undefined, 'image/png');
    return { url: fileUrl(id) };
  }

  private async dropUnusedUploads(tx: Tx, before: AdminSettingsEntity, after: AdminSettingsEntity) {
    const ids = (row: AdminSettingsEntity) =>
      [uploadedFileId(row.logoUrl), uploadedFileId(row.faviconUrl)].filter((id): id is string => id !== null);
    const inUse = ids(after);
    await this.settings.removeUnusedUploads(
      tx,
      ids(before).filter((id) => !inUse.includes(id)),
      inUse,
    );
  }

  private publish(row: AdminSettingsEntity): PlatformAppearance {
    const appearance = toAppearance(row);
    this.realtime.toEveryone('platform.appearance_updated', appearance);
    return appearance;
  }
}

/** The controller's guard already refused everyone else; the service does not rely on it. */
function requireSuperadmin(user: AuthUser): void {
  if (!user.isSuperadmin) throw new ForbiddenError(SUPERADMIN_REQUIRED);
}
