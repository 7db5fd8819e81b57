import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ColorSettings } from '../contracts/platform-appearance';

/** The installation's branding and colours: the spec's `admin_settings`, one row (id 1). */
@Entity({ name: 'admin_settings' })
@Check('CHK_admin_settings_single_row', '"id" = 1')
export class AdminSettingsEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  /** https URL, a same-origin path, or null (the built-in logo). */
  @Column({ name: 'logo_url', type: 'varchar', length: 2048, nullable: true })
  logoUrl: string | null;

  @Column({ name: 'favicon_url', type: 'varchar', length: 2048, nullable: true })
  faviconUrl: string | null;

  /** '#RRGGBB'. */
  @Column({ name: 'accent_color', type: 'varchar', length: 7, default: '#9b87f5' })
  accentColor: string;

  /** Both palettes, 13 keys each; null until someone saves colours (the defaults apply). */
  @Column({ name: 'color_settings', type: 'jsonb', nullable: true })
  colorSettings: ColorSettings | null;

  @Column({ name: 'updated_by', type: 'uuid', nullable: true })
  updatedBy: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
