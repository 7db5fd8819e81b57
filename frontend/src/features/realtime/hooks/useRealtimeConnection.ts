import { App } from 'antd';
import { useEffect } from 'react';
import { useSessionStore } from '../../auth/sessionStore';
import { resyncCompanyData } from '../../chat/chatSync';
import { resyncCompanyAdmin } from '../../company-admin/companyAdminSync';
import { describeOwnMembershipChange } from '../applyCompanyAdminEvent';
import { dispatch } from '../dispatch';
import { connectRealtime } from '../realtimeSocket';

/**
 * One socket per signed-in tab, mounted once at the root: opened on sign-in, closed on sign-out. Every
 * event goes through `dispatch`; a reply that failed is reported; a session ended by the server signs
 * this tab out.
 */
export function useRealtimeConnection(): void {
  const { notification } = App.useApp();
  const signedIn = useSessionStore((s) => s.status === 'authenticated');

  useEffect(() => {
    if (!signedIn) return;
    return connectRealtime({
      onEvent(event) {
        // Read before the event removes the company it names.
        const notice = describeOwnMembershipChange(event);
        if (notice) notification.warning({ title: notice.title, description: notice.description });
        if (dispatch(event) && event.name === 'agent.reply_failed') {
          notification.error({ title: 'Error getting agent response', description: event.payload.reason });
        }
      },
      onResync() {
        // Not a user action: the next reconnect tries again, and what is on screen stays meanwhile.
        resyncCompanyData().catch(() => undefined);
        void resyncCompanyAdmin();
      },
      onSessionRevoked() {
        useSessionStore.getState().signOut();
        notification.info({ title: 'Logged out' });
      },
    });
  }, [signedIn, notification]);
}
