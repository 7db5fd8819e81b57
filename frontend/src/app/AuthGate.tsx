import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { ConnectionErrorView } from '../components/ConnectionErrorView';
import { FullPageStatus } from '../components/FullPageStatus';
import { useSessionStore } from '../features/auth/sessionStore';

/** Routes that need a signed-in user. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const status = useSessionStore((s) => s.status);
  if (status === 'idle' || status === 'loading')
    return <FullPageStatus text="Loading authentication state..." />;
  if (status === 'error') return <ConnectionErrorView />;
  if (status === 'unauthenticated') return <Navigate to="/" replace />;
  return children;
}

/** Routes for signed-out visitors: a signed-in user goes straight to the chat. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const status = useSessionStore((s) => s.status);
  if (status === 'idle' || status === 'loading')
    return <FullPageStatus text="Loading authentication state..." />;
  if (status === 'authenticated') return <Navigate to="/chat" replace />;
  return children;
}
