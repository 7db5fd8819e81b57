import type {
  PlatformAppearance,
  UpdateColorSettingsRequest,
  UpdatePlatformSettingsRequest,
  UploadedAssetResponse,
} from '@contracts/platform-appearance';
import { http } from './httpClient';

export type AppearanceAsset = 'logo' | 'favicon';

/** The installation's look: read by anyone (no token), changed by superadmins. */
export const appearanceApi = {
  get: () => http.get<PlatformAppearance>('/api/appearance', { auth: false }),
  saveSettings: (request: UpdatePlatformSettingsRequest) =>
    http.request<PlatformAppearance>('PUT', '/api/admin/settings', { body: request }),
  saveColors: (request: UpdateColorSettingsRequest) =>
    http.request<PlatformAppearance>('PUT', '/api/admin/colors', { body: request }),
  upload: (kind: AppearanceAsset, file: File) => {
    const formData = new FormData();
    formData.append('file', file);
    return http.request<UploadedAssetResponse>('POST', `/api/admin/settings/${kind}`, { formData });
  },
};
