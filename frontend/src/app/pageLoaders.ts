/**
 * Loaders of the pages a page load can start on, shared by the route table and the start-up: the chat's
 * code starts loading with the session check instead of after it.
 */
export const loadChatPage = () => import('../pages/ChatPage');
export const loadSignInPage = () => import('../pages/SignInPage');

/**
 * The page opened is the chat, or the sign-in page that sends a signed-in user there (unless it was
 * asked to send them elsewhere). public/session-preload.js applies the same rule.
 */
export function opensChat(pathname: string, search: string): boolean {
  return pathname === '/chat' || (pathname === '/' && !/[?&]redirect=/.test(search));
}

/**
 * The screen a page load will most probably show, whose code can load before the session check: the
 * chat when the page leads there and the browser is probably signed in (the hint cookie), the sign-in
 * form when the visitor is signed out (on `/`, or on `/chat`, which sends them there).
 */
export function startPage(pathname: string, search: string, signedIn: boolean): 'chat' | 'sign-in' | null {
  if (signedIn) return opensChat(pathname, search) ? 'chat' : null;
  return pathname === '/' || pathname === '/chat' ? 'sign-in' : null;
}

/**
 * Starts loading the first screen's code before the app's first render (main.tsx), instead of when its
 * route renders after the session check.
 */
export function preloadStartPage(pathname: string, search: string, signedIn: boolean): void {
  const page = startPage(pathname, search, signedIn);
  const load = page === 'chat' ? loadChatPage : page === 'sign-in' ? loadSignInPage : null;
  // A failure here is the route's to report when it renders (React.lazy retries the import).
  load?.().catch(() => undefined);
}
