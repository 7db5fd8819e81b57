import { App } from '../../../hooks/appApi';
import { useEffect, useEffectEvent } from 'react';
import { getErrorMessage, hasErrorCode } from '../../../api/errors';
import { useChatStore } from '../../../stores/chatStore';
import { loadLatestMessages } from '../chatSync';
import { loadCompanyData } from '../../../workspace/companyData';
import { useCompanyStore } from '../../../stores/companyStore';

/** Loads the current company's agents and chats (fresh on every company switch) and the open chat's messages. */
export function useCompanyChatData(): void {
  const { notification } = App.useApp();
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const activeChatId = useChatStore((s) => s.activeChatId);
  const openLoaded = useChatStore((s) => (s.activeChatId ? !!s.messages[s.activeChatId]?.loaded : true));

  // Loads follow the company and the open chat only: never the toast API's identity, nor the theme.
  const failed = useEffectEvent((title: string, error: unknown) => {
    // The company requires single sign-on from this session: the page turns into that notice instead.
    if (hasErrorCode(error, 'SSO_REQUIRED')) return;
    notification.error({ title, description: getErrorMessage(error) });
  });

  useEffect(() => {
    if (!companyId) return;
    loadCompanyData(companyId).catch((error: unknown) => failed('Error loading chats', error));
  }, [companyId]);

  useEffect(() => {
    if (!companyId || !activeChatId || openLoaded) return;
    loadLatestMessages(companyId, activeChatId).catch((error: unknown) =>
      failed('Error loading messages', error),
    );
  }, [companyId, activeChatId, openLoaded]);
}
