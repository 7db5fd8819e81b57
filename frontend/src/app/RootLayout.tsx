import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { FullPageStatus } from '../components/FullPageStatus';
import { useRealtimeConnection } from '../features/realtime/hooks/useRealtimeConnection';
import { useSessionStore } from '../features/auth/sessionStore';
import { opensChat } from './pageLoaders';

const initializingView = <FullPageStatus text="Initializing application..." />;

/** Starts the session check once and shows the app-wide loading state until it has begun. */
export function RootLayout() {
  const status = useSessionStore((s) => s.status);
  const initialize = useSessionStore((s) => s.initialize);
  const { pathname, search } = useLocation();
  // One socket for every signed-in screen, so a session ended elsewhere signs this tab out anywhere.
  useRealtimeConnection();

  // Whether the page the browser opened leads to the chat: its data comes with the session check.
  const [chatScreen] = useState(() => opensChat(pathname, search));
  useEffect(() => {
    // The screen's code is already loading (main.tsx: preloadStartPage) while the session is checked.
    void initialize({ chatScreen });
  }, [initialize, chatScreen]);

  if (status === 'idle') return initializingView;
  return (
    <Suspense fallback={initializingView}>
      <Outlet />
    </Suspense>
  );
}
