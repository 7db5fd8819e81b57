import type { SessionBootstrapResponse } from '@contracts/bootstrap';
import type { EarlyRequests } from './earlyRequests';
import { hasSessionHint, opensChat, startPage } from './startPage';

/**
 * /session-preload.js: the page's first requests, started while the app's code is still loading
 * (index.html loads the script first, async; the build makes it from this module, build/sessionPreload.ts):
 * the code of the screen it will show (the chat, or the sign-in form) and, signed in, the session check
 * and the first screen's data in one request (POST /api/auth/session), answered to the app as the two it
 * makes: POST /api/auth/refresh and GET /api/bootstrap. The app takes each answer once, for the first
 * identical request it makes (earlyRequests.ts).
 */

/** Where the app keeps the company shown last (companyStore's CURRENT_COMPANY_STORAGE_KEY). */
export const COMPANY_STORAGE_KEY = 'currentCompanyId';

/** `files`: what each start page loads beyond the app's entry (the build's list; none in development). */
export function preloadSession(files: Partial<Record<string, string[]>>): void {
  // Set first, whatever follows: the app waits for this script to have run before its own session
  // check (earlyRequests.ts), so the two never both refresh (each refresh rotates the token).
  const early: EarlyRequests = (window.__sbEarly ??= {});
  const signedIn = hasSessionHint(document.cookie);
  const { pathname, search } = location;
  const page = startPage(pathname, search, signedIn);
  const preloadPage = () => {
    for (const file of (page && files[page]) || []) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = file;
      document.head.appendChild(link);
    }
  };
  if (!signedIn) {
    preloadPage();
    return;
  }
  let companyId: string | null = null;
  try {
    companyId = localStorage.getItem(COMPANY_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode): the first company is shown.
  }
  const query: string[] = [];
  if (companyId) query.push(`companyId=${encodeURIComponent(companyId)}`);
  if (opensChat(pathname, search)) query.push('chat=true');
  const queryString = query.length ? `?${query.join('&')}` : '';
  const bootstrapUrl = `/api/bootstrap${queryString}`;

  // One round trip for both: the refresh and, for the user it restores, the bootstrap. Chaining the two
  // here would wait for the page's main thread, busy starting the app.
  const both = fetch(`/api/auth/session${queryString}`, {
    method: 'POST',
    headers: { Accept: 'application/json' },
    credentials: 'include',
  });
  const answer = both.then((response) =>
    response.ok ? (response.clone().json() as Promise<SessionBootstrapResponse>) : null,
  );
  const asJson = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  // The refresh's answer as POST /api/auth/refresh gives it: the session, or the refusal as it came.
  const refresh = answer.then((session) =>
    session
      ? asJson({ accessToken: session.accessToken, expiresIn: session.expiresIn, user: session.user })
      : both,
  );
  const bootstrap = answer.then((session) => {
    if (!session) throw new Error('no session');
    if (session.bootstrap) return asJson(session.bootstrap);
    // The server could not read it: asked again, as the app would.
    return fetch(bootstrapUrl, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${session.accessToken}` },
      credentials: 'include',
    });
  });
  // Not taken (the app decided otherwise) or failed: the app asks again itself; nothing to report here.
  refresh.catch(() => undefined);
  bootstrap.catch(() => undefined);
  early['POST /api/auth/refresh'] = refresh;
  early[`GET ${bootstrapUrl}`] = bootstrap;
  preloadPage();
}
