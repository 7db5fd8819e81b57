import { useEffect, useState } from 'react';
import { authApi } from '../../../api/authApi';
import { ssoApi } from '../../../api/ssoApi';
import { ApiError, getErrorMessage } from '../../../api/errors';
import { useSessionStore } from '../../../stores/sessionStore';
import { initializeSession, loadProfile } from '../../../workspace/session';

/** verify: a new account's address; confirm: a changed address; domain: a company's SSO email domain. */
export type EmailLinkKind = 'verify' | 'confirm' | 'domain';

/** `email`: what the link confirmed when it says (the new address, or the proved domain). */
export type EmailLinkState =
  { status: 'checking' } | { status: 'done'; email: string | null } | { status: 'failed'; message: string };

export const INVALID_LINK_MESSAGES: Record<EmailLinkKind, string> = {
  verify: 'This verification link is invalid or has expired.',
  confirm: 'This confirmation link is invalid or has expired.',
  domain: 'This domain confirmation link is invalid or has expired.',
};

/**
 * A link's token works once: React runs effects twice in development, and both runs must share the one
 * request rather than the second being refused as already used.
 */
const followed = new Map<string, Promise<string | null>>();

async function follow(kind: EmailLinkKind, token: string): Promise<string | null> {
  if (kind === 'verify') {
    await authApi.verifyEmail(token);
    return null;
  }
  if (kind === 'domain') return (await ssoApi.verifyDomain(token)).domain;
  const { email } = await authApi.confirmEmail(token);
  // The address did change; if reloading it fails, only this tab's copy is stale until the next load.
  await showNewEmail().catch(() => undefined);
  return email;
}

/** A signed-in tab shows the new address at once (after the session check, if that is still running). */
async function showNewEmail(): Promise<void> {
  if (useSessionStore.getState().status === 'loading') await initializeSession();
  if (useSessionStore.getState().status === 'authenticated') await loadProfile();
}

function failureMessage(kind: EmailLinkKind, error: unknown): string {
  // A refused token is always "invalid or expired" (but a domain another company proved meanwhile says
  // so); a network or server failure says so instead.
  if (kind === 'domain' && error instanceof ApiError && error.kind === 'http' && error.status === 409)
    return getErrorMessage(error, INVALID_LINK_MESSAGES[kind]);
  if (error instanceof ApiError && error.kind === 'http' && error.status < 500)
    return INVALID_LINK_MESSAGES[kind];
  return getErrorMessage(error, INVALID_LINK_MESSAGES[kind]);
}

/** Follows an emailed link (verify the address, or confirm a new one) once, and reports how it went. */
export function useEmailLink(kind: EmailLinkKind, token: string | null): EmailLinkState {
  const [state, setState] = useState<EmailLinkState>(() =>
    token ? { status: 'checking' } : { status: 'failed', message: INVALID_LINK_MESSAGES[kind] },
  );

  useEffect(() => {
    if (!token) return;
    let active = true;
    const key = `${kind}:${token}`;
    let attempt = followed.get(key);
    if (!attempt) {
      attempt = follow(kind, token);
      followed.set(key, attempt);
    }
    attempt.then(
      (email) => {
        if (active) setState({ status: 'done', email });
      },
      (error: unknown) => {
        // A failed attempt may be retried by loading the page again (say, after a network blip).
        followed.delete(key);
        if (active) setState({ status: 'failed', message: failureMessage(kind, error) });
      },
    );
    return () => {
      active = false;
    };
  }, [kind, token]);

  return state;
}
