import { App } from 'antd';
import { useMemo } from 'react';
import { getErrorMessage } from '../api/errors';
import { useCompanyStore } from '../features/companies/companyStore';

export interface ActionToasts {
  success: (title: string, description?: string) => void;
  /** A failed action: the screen's title, and the one error policy's message (or the screen's fallback). */
  failure: (title: string, error: unknown, fallback?: string) => void;
  /** A refusal in the spec's own fixed words (nothing from the error is shown). */
  refusal: (title: string, description?: string) => void;
  /** The current company, or null after the spec's 'No company selected' toast. */
  companyOrToast: () => string | null;
}

/** What every action hook reports with, so that each says success and failure alike. */
export function useActionToasts(): ActionToasts {
  const { notification } = App.useApp();
  return useMemo(
    () => ({
      success: (title, description) => notification.success({ title, description }),
      failure: (title, error, fallback) =>
        notification.error({ title, description: getErrorMessage(error, fallback) }),
      refusal: (title, description) => notification.error({ title, description }),
      companyOrToast() {
        const companyId = useCompanyStore.getState().currentCompanyId;
        if (!companyId) notification.error({ title: 'No company selected' });
        return companyId;
      },
    }),
    [notification],
  );
}
