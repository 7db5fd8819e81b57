import { App } from './appApi';
import { useMemo } from 'react';
import { getErrorMessage } from '../api/errors';
import { useCompanyStore } from '../stores/companyStore';

export interface ActionToasts {
  success: (title: string, description?: string) => void;
  /** A failed action: the screen's title, and the one error policy's message (or the screen's fallback). */
  failure: (title: string, error: unknown, fallback?: string) => void;
  /** A refusal in the spec's own fixed words (nothing from the error is shown). */
  refusal: (title: string, description?: string) => void;
  /** Closes a toast shown with these words (e.g. a refusal the user has since put right). */
  dismiss: (title: string, description?: string) => void;
  /** The current company, or null after the spec's 'No company selected' toast. */
  companyOrToast: () => string | null;
}

/** The same words make the same toast: a repeated action refreshes it instead of stacking copies. */
function toastKey(title: string, description?: string): string {
  return `toast:${title}\u0000${description ?? ''}`;
}

/** What every action hook reports with, so that each says success and failure alike. */
export function useActionToasts(): ActionToasts {
  const { notification } = App.useApp();
  return useMemo(
    () => ({
      success: (title, description) =>
        notification.success({ key: toastKey(title, description), title, description }),
      failure: (title, error, fallback) => {
        const description = getErrorMessage(error, fallback);
        notification.error({ key: toastKey(title, description), title, description });
      },
      refusal: (title, description) =>
        notification.error({ key: toastKey(title, description), title, description }),
      dismiss: (title, description) => notification.destroy(toastKey(title, description)),
      companyOrToast() {
        const companyId = useCompanyStore.getState().currentCompanyId;
        if (!companyId)
          notification.error({ key: toastKey('No company selected'), title: 'No company selected' });
        return companyId;
      },
    }),
    [notification],
  );
}
