import { useCallback, useEffect, useState } from 'react';
import type { AddSsoDomainRequest, SsoSettingsView, UpdateSsoSettingsRequest } from '../../../api/contracts';
import { getErrorMessage } from '../../../api/errors';
import { ssoApi } from '../../../api/ssoApi';
import { useActionToasts } from '../../../hooks/useActionToasts';

export interface SsoSettingsState {
  settings: SsoSettingsView | null;
  loadError: string | null;
  save: (request: UpdateSsoSettingsRequest) => Promise<boolean>;
  claimDomain: (request: AddSsoDomainRequest) => Promise<boolean>;
  removeDomain: (domainId: string, domain: string) => Promise<void>;
}

/**
 * The company's single sign-on settings (owners only), loaded for the section that shows them: nobody
 * else reads them, so they live with the section rather than in a store. Each action answers the new state.
 */
export function useSsoSettings(companyId: string): SsoSettingsState {
  const toasts = useActionToasts();
  const [settings, setSettings] = useState<SsoSettingsView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    const fresh = await ssoApi.settings(companyId);
    setSettings(fresh);
  }, [companyId]);

  useEffect(() => {
    let active = true;
    setSettings(null);
    setLoadError(null);
    ssoApi.settings(companyId).then(
      (fresh) => {
        if (active) setSettings(fresh);
      },
      (error: unknown) => {
        if (active) setLoadError(getErrorMessage(error, 'Could not load the single sign-on settings.'));
      },
    );
    return () => {
      active = false;
    };
  }, [companyId]);

  const save = useCallback(
    async (request: UpdateSsoSettingsRequest) => {
      try {
        setSettings(await ssoApi.update(companyId, request));
        toasts.success('Single sign-on saved');
        return true;
      } catch (error) {
        toasts.failure('Failed to save single sign-on', error, 'Please try again later.');
        return false;
      }
    },
    [companyId, toasts],
  );

  const claimDomain = useCallback(
    async (request: AddSsoDomainRequest) => {
      try {
        const domain = await ssoApi.claimDomain(companyId, request);
        await reload().catch(() => undefined);
        toasts.success(
          domain.verifiedAt ? 'Domain already verified' : 'Proof link sent',
          domain.proofSentTo ? `Follow the link mailed to ${domain.proofSentTo}.` : undefined,
        );
        return true;
      } catch (error) {
        toasts.failure('Failed to add domain', error, 'Please try again later.');
        return false;
      }
    },
    [companyId, reload, toasts],
  );

  const removeDomain = useCallback(
    async (domainId: string, domain: string) => {
      try {
        await ssoApi.removeDomain(companyId, domainId);
        await reload().catch(() => undefined);
        toasts.success('Domain removed', `${domain} no longer signs in through your provider.`);
      } catch (error) {
        toasts.failure('Failed to remove domain', error, 'Please try again later.');
      }
    },
    [companyId, reload, toasts],
  );

  return { settings, loadError, save, claimDomain, removeDomain };
}
