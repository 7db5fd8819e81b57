import { App } from 'antd';
import { useEffect } from 'react';
import { connectRealtime } from '../../../api/socket';
import { replayAfterListLoads, resyncCompanyData } from '../../../stores/chatSync';
import { applyRealtimeEvent } from '../../../stores/realtimeEvents';
import { useSessionStore } from '../../../stores/sessionStore';

/**
 * One socket per signed-in tab: opened on sign-in, closed on sign-out. Events go to the stores; a reply
 * that failed is reported; a session ended by the server signs this tab out.
 */
export function useRealtimeConnection(): void {
  const { notification } = App.useApp();
  const signedIn = useSessionStore((s) => s.status === 'authenticated');

  useEffect(() => {
    if (!signedIn) return;
    return connectRealtime({
      onEvent(name, payload) {
        const applied = applyRealtimeEvent(name, payload);
        replayAfterListLoads(() => applyRealtimeEvent(name, payload));
        if (applied && name === 'agent.reply_failed') {
          const { reason } = payload as { reason: string };
          notification.error({ title: 'Error getting agent response', description: reason });
        }
      },
      onResync() {
        resyncCompanyData().catch(() => {
          // The next reconnect tries again; what is on screen stays meanwhile.
        });
      },
      onSessionRevoked() {
        useSessionStore.getState().signOut();
        notification.info({ title: 'Logged out' });
      },
    });
  }, [signedIn, notification]);
}
