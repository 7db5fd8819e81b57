import { expect, test, type Page } from '@playwright/test';
import { createChat, registerViaApi } from '../fixtures/api';
import { chatRow } from '../fixtures/chat';
import { realtimeConnected } from '../fixtures/realtime';
import { newAccount } from '../fixtures/ui';

/**
 * The catch-up when a page's socket first connects: the page's first data came over HTTP before the
 * socket was up, with versions the handshake carries; the server names what changed since, and the page
 * reloads only that. Nothing changed: no request follows the connection.
 */

/**
 * The API requests the page makes ('GET /api/chats', say), and those made after its socket connected:
 * the page reloads on the connection's own callback, so the split is made in the same stream of
 * browser events as the requests (the server's CONNECT packet reaching the page), not once a test step
 * has seen it.
 */
function apiRequests(page: Page): { all: string[]; afterConnect: () => string[] } {
  const all: string[] = [];
  let connectedAt: number | null = null;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) all.push(`${request.method()} ${url.pathname}`);
  });
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/socket.io/')) return;
    ws.on('framereceived', ({ payload }) => {
      if (connectedAt === null && typeof payload === 'string' && payload.startsWith('40'))
        connectedAt = all.length;
    });
  });
  return { all, afterConnect: () => (connectedAt === null ? [] : all.slice(connectedAt)) };
}

/** The requests a resync of the chat page or the appearance makes. */
const RESYNC = /^GET \/api\/(agents|chats|appearance|bootstrap)\b/;

test('a chat page whose data did not change before its socket connected asks for nothing more', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(page, newAccount('catchup-quiet'));
  await createChat(session, { agentId: 'default-agent', title: 'Quiet chat' });
  const connected = realtimeConnected(page);
  const requests = apiRequests(page);
  await page.goto('/chat');
  await expect(chatRow(page, 'Quiet chat')).toBeVisible();
  await connected;

  // A catch-up would come right after the connection; a change made once it has had time to, reaches
  // the page as an event (the socket is live) and needs no request either.
  await page.waitForTimeout(1_500);
  // From another device (a context of its own: the page's idle keep-alive connection may be closing).
  await createChat({ ...session, request }, { agentId: 'default-agent', title: 'Started later' });
  await expect(chatRow(page, 'Started later')).toBeVisible();
  await page.waitForTimeout(500);
  const afterConnect = requests.afterConnect();
  console.log(`API requests after the socket connected: ${afterConnect.length} ${afterConnect.join(', ')}`);
  expect(afterConnect.filter((r) => RESYNC.test(r))).toEqual([]);
});

test('a chat started elsewhere after the page read its data, before its socket connected, appears', async ({
  page,
}) => {
  const session = await registerViaApi(page, newAccount('catchup-missed'));
  await createChat(session, { agentId: 'default-agent', title: 'First chat' });
  // The page's first data (the session preload's answer, or GET /api/bootstrap) is read, then another
  // device starts a chat, then the page gets that older answer: the chat's event was published before
  // the page's socket existed, so only the catch-up can bring it.
  let started = false;
  await page.route(/\/api\/(auth\/session|bootstrap)(\?|$)/, async (route) => {
    const answer = await route.fetch();
    if (!started) {
      started = true;
      await createChat(session, { agentId: 'default-agent', title: 'Started meanwhile' });
    }
    await route.fulfill({ response: answer });
  });
  const connected = realtimeConnected(page);
  const requests = apiRequests(page);
  await page.goto('/chat');
  await expect(chatRow(page, 'First chat')).toBeVisible();
  await connected;
  await expect(chatRow(page, 'Started meanwhile')).toBeVisible();
  expect(started).toBe(true);
  // Reloaded because the server named the chat data; not the appearance, which did not change.
  expect(requests.afterConnect()).toContain('GET /api/agents');
  expect(requests.afterConnect()).not.toContain('GET /api/appearance');
});
