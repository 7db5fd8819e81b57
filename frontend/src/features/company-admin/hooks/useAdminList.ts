import { useCallback, useEffect, useState } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { useCompanyStore } from '../../../stores/companyStore';
import { adminLoaders, type AdminListName } from '../companyAdminSync';

export interface AdminListLoad {
  loading: boolean;
  /** The one error policy's message of the last failed load, else null. */
  error: string | null;
  reload: () => Promise<void>;
}

/** Loads one admin list for the current company, afresh on every company switch; live events do the rest. */
export function useAdminList(name: AdminListName, onError?: (message: string) => void): AdminListLoad {
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    if (!companyId) return;
    setLoading(true);
    try {
      await adminLoaders[name](companyId);
      setError(null);
    } catch (cause) {
      const message = getErrorMessage(cause);
      setError(message);
      onError?.(message);
    } finally {
      setLoading(false);
    }
  }, [companyId, name, onError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { loading, error, reload };
}
