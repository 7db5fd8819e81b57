import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { FullPageStatus } from '../components/FullPageStatus';
import { useRealtimeConnection } from './useRealtimeConnection';
import { useSessionStore } from '../stores/sessionStore';
import { startPageLoadingNow } from '../boot/pageLoaders';
import { opensChat } from '../boot/startPage';
import { initializeSession } from '../workspace/session';

const initializingView = <FullPageStatus text="Initializing application..." />;

/** Starts the session check once and shows the app-wide loading state until it has begun. */
export function RootLayout() {
  const status = useSessionStore((s) => s.status);
  const { pathname, search } = useLocation();

  // Whether the page the browser opened leads to the chat: its data comes with the session check.
  const [chatScreen] = useState(() => opensChat(pathname, search));
  useEffect(() => {
    // The screen's code is already loading (main.tsx: preloadStartPage) while the session is checked.
    void initializeSession({ chatScreen });
  }, [chatScreen]);

  // The loading view stays until the first screen's code is here, and is not a Suspense fallback
  // meanwhile: React throttles the reveal of content that suspended, and a warm visit, whose code comes
  // from the cache, waited out that throttle with nothing left to load.
  const [pageCode, setPageCode] = useState(startPageLoadingNow);
  useEffect(() => {
    let current = true;
    void pageCode?.then(() => {
      if (current) setPageCode(null);
    });
    return () => {
      current = false;
    };
  }, [pageCode]);

  const pageShown = status !== 'idle' && !pageCode;
  // One socket for every signed-in screen, so a session ended elsewhere signs this tab out anywhere.
  useRealtimeConnection(pageShown);

  if (!pageShown) return initializingView;
  return (
    <Suspense fallback={initializingView}>
      <Outlet />
    </Suspense>
  );
}
