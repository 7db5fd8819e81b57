/**
 * Loaders of the pages a page load can start on, shared by the route table and the start-up: the chat's
 * code starts loading with the session check instead of after it.
 */
export const loadChatPage = () => import('../pages/ChatPage');

/**
 * The page opened is the chat, or the sign-in page that sends a signed-in user there (unless it was
 * asked to send them elsewhere). public/session-preload.js applies the same rule.
 */
export function opensChat(pathname: string, search: string): boolean {
  return pathname === '/chat' || (pathname === '/' && !/[?&]redirect=/.test(search));
}

/** Starts loading the chat's code when the session check will probably lead there (it is signed in). */
export function preloadChat(): void {
  // A failure here is the route's to report when it renders (React.lazy retries the import).
  loadChatPage().catch(() => undefined);
}
