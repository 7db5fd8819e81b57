import type {
  ColorSettings,
  PlatformAppearance,
  UpdatePlatformSettingsRequest,
} from '@contracts/platform-appearance';
import { useMemo } from 'react';
import { type AppearanceAsset, appearanceApi } from '../../../api/appearanceApi';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { fetchAndApply } from '../../../sync/dispatch';
import { parseAppearance, useAppearanceStore } from '../../../stores/appearanceStore';
import { loadAppearance } from './loadAppearance';

/** The spec's avatar limit, also for logos and favicons (the server checks it again). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const SAVED = 'Your changes have been applied successfully.';
const LATER = 'Please try again later.';

export interface AppearanceActions {
  /** Platform Settings opened: false after the spec's 'Failed to load settings' toast. */
  loadSettings: () => Promise<boolean>;
  /** Colour Settings opened: false after 'Failed to load color settings'. */
  loadColors: () => Promise<boolean>;
  saveSettings: (request: UpdatePlatformSettingsRequest) => Promise<PlatformAppearance | null>;
  saveColors: (colors: ColorSettings) => Promise<PlatformAppearance | null>;
  /** The stored image's address for the form, or null after a toast saying why not. */
  upload: (kind: AppearanceAsset, file: File) => Promise<string | null>;
}

function keep(answer: PlatformAppearance): void {
  const appearance = parseAppearance(answer);
  if (appearance) useAppearanceStore.getState().setAppearance(appearance);
}

/** Platform Settings and Colour Settings: load, save, upload. Every outcome is a toast. */
export function useAppearanceActions(): AppearanceActions {
  const toasts = useActionToasts();

  return useMemo(() => {
    const { success, failure, refusal } = toasts;
    const load = async (title: string) => {
      try {
        await loadAppearance();
        return true;
      } catch {
        refusal(title, LATER);
        return false;
      }
    };
    return {
      loadSettings: () => load('Failed to load settings'),
      loadColors: () => load('Failed to load color settings'),

      async saveSettings(request) {
        try {
          const saved = await fetchAndApply(() => appearanceApi.saveSettings(request), keep);
          success('Settings saved', SAVED);
          return saved;
        } catch (error) {
          failure('Failed to save settings', error, LATER);
          return null;
        }
      },

      async saveColors(colors) {
        try {
          const saved = await fetchAndApply(() => appearanceApi.saveColors(colors), keep);
          success('Color settings saved', SAVED);
          return saved;
        } catch (error) {
          failure('Failed to save color settings', error);
          return null;
        }
      },

      async upload(kind, file) {
        if (file.size > MAX_UPLOAD_BYTES) {
          refusal('File too large', 'Please upload an image smaller than 5MB.');
          return null;
        }
        try {
          const { url } = await appearanceApi.upload(kind, file);
          success(kind === 'logo' ? 'Logo uploaded' : 'Favicon uploaded', 'Save Changes to apply it.');
          return url;
        } catch (error) {
          failure('Upload failed', error, 'Could not upload the image');
          return null;
        }
      },
    };
  }, [toasts]);
}
