import type { PlatformAppearance } from '@contracts/platform-appearance';
import { appearanceApi } from '../../../api/appearanceApi';
import { fetchAndApply } from '../../../sync/dispatch';
import { parseAppearance, useAppearanceStore } from '../../../stores/appearanceStore';

/**
 * Reads the appearance from the server into the store (at start, on a resync, when an admin page
 * opens). An event that arrives meanwhile wins over the answer. Rejects when the request fails.
 */
export async function loadAppearance(): Promise<PlatformAppearance> {
  let applied = false;
  return fetchAndApply(
    () => appearanceApi.get(),
    (answer) => {
      const appearance = parseAppearance(answer);
      if (appearance) useAppearanceStore.getState().setAppearance(appearance);
      applied = !!appearance;
    },
    'appearance',
    // Its save time versions it: the socket asks whether another save came since.
    (answer) => (applied ? { appearance: answer.updatedAt } : null),
  );
}
