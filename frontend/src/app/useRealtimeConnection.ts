import { App } from '../hooks/appApi';
import { useEffect, useEffectEvent } from 'react';
import { useSessionStore } from '../stores/sessionStore';
import { resyncCompanyData } from '../workspace/companyData';
import { resyncCompanyAdmin } from '../features/company-admin/companyAdminSync';
import { loadAppearance } from '../features/platform-admin/appearance/loadAppearance';
import { describeOwnMembershipChange } from '../workspace/applyCompanyAdminEvent';
import { dispatch } from '../sync/dispatch';
import { connectRealtime } from '../sync/realtimeSocket';
import type { ServerEvent } from '../sync/serverEvent';
import { signOut } from '../workspace/session';

/**
 * One socket per signed-in tab, mounted once at the root: opened on sign-in, closed on sign-out. Every
 * event goes through `dispatch`; a reply that failed is reported; a session ended by the server signs
 * this tab out. `pageShown`: the app renders a page, no longer its loading view (the socket waits for
 * the first screen, whose data came without it).
 */
export function useRealtimeConnection(pageShown: boolean): void {
  const { notification } = App.useApp();
  const signedIn = useSessionStore((s) => s.status === 'authenticated') && pageShown;

  // The socket follows the session only: a new toast API (a theme switch, a resize) must not reconnect it.
  const onEvent = useEffectEvent((event: ServerEvent) => {
    // Read before the event removes the company it names.
    const notice = describeOwnMembershipChange(event);
    if (notice) notification.warning({ title: notice.title, description: notice.description });
    if (dispatch(event) && event.name === 'agent.reply_failed') {
      notification.error({ title: 'Error getting agent response', description: event.payload.reason });
    }
  });
  const onSessionRevoked = useEffectEvent(() => {
    signOut();
    notification.info({ title: 'Logged out' });
  });

  useEffect(() => {
    if (!signedIn) return;
    return connectRealtime({
      onEvent: (event) => onEvent(event),
      onResync(topics) {
        // Not a user action: the next reconnect tries again, and what is on screen stays meanwhile.
        if (topics.has('chat')) resyncCompanyData().catch(() => undefined);
        if (topics.has('admin')) void resyncCompanyAdmin();
        // A settings or colours save missed while disconnected.
        if (topics.has('appearance')) loadAppearance().catch(() => undefined);
      },
      onSessionRevoked: () => onSessionRevoked(),
    });
  }, [signedIn]);
}
