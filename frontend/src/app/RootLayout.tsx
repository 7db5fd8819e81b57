import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { FullPageStatus } from '../components/FullPageStatus';
import { useRealtimeConnection } from '../features/realtime/hooks/useRealtimeConnection';
import { useSessionStore } from '../features/auth/sessionStore';

const initializingView = <FullPageStatus text="Initializing application..." />;

/** Starts the session check once and shows the app-wide loading state until it has begun. */
export function RootLayout() {
  const status = useSessionStore((s) => s.status);
  const initialize = useSessionStore((s) => s.initialize);
  // One socket for every signed-in screen, so a session ended elsewhere signs this tab out anywhere.
  useRealtimeConnection();

  useEffect(() => {
    void initialize();
  }, [initialize]);

  if (status === 'idle') return initializingView;
  return (
    <Suspense fallback={initializingView}>
      <Outlet />
    </Suspense>
  );
}
