import { App } from 'antd';
import { useEffect } from 'react';
import { getErrorMessage } from '../../../api/errors';
import { useChatStore } from '../chatStore';
import { loadCompanyData, loadLatestMessages } from '../chatSync';
import { useCompanyStore } from '../../companies/companyStore';

/** Loads the current company's agents and chats (fresh on every company switch) and the open chat's messages. */
export function useCompanyChatData(): void {
  const { notification } = App.useApp();
  const companyId = useCompanyStore((s) => s.currentCompanyId);
  const activeChatId = useChatStore((s) => s.activeChatId);
  const openLoaded = useChatStore((s) => (s.activeChatId ? !!s.messages[s.activeChatId]?.loaded : true));

  useEffect(() => {
    if (!companyId) return;
    loadCompanyData(companyId).catch((error: unknown) => {
      notification.error({ title: 'Error loading chats', description: getErrorMessage(error) });
    });
  }, [companyId, notification]);

  useEffect(() => {
    if (!companyId || !activeChatId || openLoaded) return;
    loadLatestMessages(companyId, activeChatId).catch((error: unknown) => {
      notification.error({ title: 'Error loading messages', description: getErrorMessage(error) });
    });
  }, [companyId, activeChatId, openLoaded, notification]);
}
