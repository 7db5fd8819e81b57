import { lazy, type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { FullPageStatus } from '../components/FullPageStatus';
import { useSessionStore } from '../stores/sessionStore';
import { safeRedirectPath } from '../lib/safeRedirect';

// Seldom shown, and antd's Result (its illustrations) is heavy: loaded when the server cannot be reached.
const ConnectionErrorView = lazy(() =>
  import('../components/ConnectionErrorView').then((m) => ({ default: m.ConnectionErrorView })),
);

/** Routes that need a signed-in user. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const status = useSessionStore((s) => s.status);
  if (status === 'idle' || status === 'loading')
    return <FullPageStatus text="Loading authentication state..." />;
  if (status === 'error') return <ConnectionErrorView />;
  if (status === 'unauthenticated') return <Navigate to="/" replace />;
  return children;
}

/** Routes for signed-out visitors: a signed-in user goes straight to the chat (or a safe `redirect`). */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const status = useSessionStore((s) => s.status);
  const [searchParams] = useSearchParams();
  if (status === 'idle' || status === 'loading')
    return <FullPageStatus text="Loading authentication state..." />;
  if (status === 'authenticated')
    return <Navigate to={safeRedirectPath(searchParams.get('redirect')) ?? '/chat'} replace />;
  return children;
}
