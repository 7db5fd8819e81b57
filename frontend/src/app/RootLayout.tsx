import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { FullPageStatus } from '../components/FullPageStatus';
import { useSessionStore } from '../stores/sessionStore';

const initializingView = <FullPageStatus text="Initializing application..." />;

/** Starts the session check once and shows the app-wide loading state until it has begun. */
export function RootLayout() {
  const status = useSessionStore((s) => s.status);
  const initialize = useSessionStore((s) => s.initialize);

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
