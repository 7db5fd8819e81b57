import { expect, test, type Page } from '@playwright/test';
import {
  agentWebhookUrl,
  apiHeaders,
  createAgent,
  createChat,
  registerViaApi,
  releaseSlowReply,
  type ApiSession,
} from '../fixtures/api';
import {
  agentMessage,
  chatRow,
  messageInput,
  selectAgent,
  sendMessage,
  sidebarAgent,
  typingIndicator,
  userMessage,
} from '../fixtures/chat';
import { controlRealtime, realtimeConnected } from '../fixtures/realtime';
import { newAccount } from '../fixtures/ui';

/**
 * What happens while a page is not (yet) live must show once it is, with no reload (issue 3: "On
 * reconnect the client resyncs what it missed ... with no gaps and no duplicates"; "the typing indicator
 * clears on reply ... never sticks").
 */

async function waitUntilAnswered(session: ApiSession, page: Page) {
  await expect
    .poll(async () => {
      const res = await page.request.get('/api/chats?archived=false', { headers: apiHeaders(session) });
      const { chats } = (await res.json()) as { chats: Array<{ pendingReply: boolean }> };
      return chats.length === 1 && !chats[0].pendingReply;
    })
    .toBe(true);
}

async function startSlowChat(page: Page, prefix: string) {
  const session = await registerViaApi(page, newAccount(prefix));
  await createAgent(session, { name: 'Slowpoke', webhook: agentWebhookUrl('/slow?ms=30000') });
  const realtime = await controlRealtime(page);
  const connected = realtime.nextConnect();
  await page.goto('/chat');
  await connected;
  await selectAgent(page, 'Slowpoke');
  const question = `${prefix} ${Date.now()}`;
  await sendMessage(page, question);
  await expect(typingIndicator(page)).toBeVisible();
  return { session, realtime, question };
}

test('a reply that lands while the connection is down shows after it reconnects', async ({ page }) => {
  const { session, realtime, question } = await startSlowChat(page, 'reconnect');

  // The network drops; the reconnection cannot complete while the reply is stored.
  realtime.hold();
  await realtime.drop();
  await releaseSlowReply(page.request, question);
  await waitUntilAnswered(session, page);
  await expect(agentMessage(page, `slow: ${question}`)).toHaveCount(0);

  const reconnected = realtime.nextConnect();
  realtime.release();
  await reconnected;
  await expect(agentMessage(page, `slow: ${question}`)).toBeVisible();
  await expect(typingIndicator(page)).toBeHidden();
  await expect(messageInput(page)).toBeEnabled();
  await expect(userMessage(page, question)).toHaveCount(1);
  await expect(agentMessage(page, `slow: ${question}`)).toHaveCount(1);
});

test('a reply that lands between loading the page and its first connection shows', async ({ page }) => {
  const { session, realtime, question } = await startSlowChat(page, 'firstconnect');

  // Reload with the first handshake held: the page loads the chat (typing, as the reply is pending)...
  realtime.hold();
  await page.reload();
  await expect(userMessage(page, question)).toBeVisible();
  await expect(typingIndicator(page)).toBeVisible();
  // ...the reply is stored before the page's socket is connected...
  await releaseSlowReply(page.request, question);
  await waitUntilAnswered(session, page);

  // ...and must show once it is, like any event missed while disconnected.
  const connected = realtime.nextConnect();
  realtime.release();
  await connected;
  await expect(agentMessage(page, `slow: ${question}`)).toBeVisible();
  await expect(typingIndicator(page)).toBeHidden();
  await expect(messageInput(page)).toBeEnabled();
});

test('a chat started on another device while this page loads its lists still appears', async ({ page }) => {
  const session = await registerViaApi(page, newAccount('loading'));
  // This page's first Active-chats answer is read from the server at once but held back until the test
  // says, so that the other device acts while the page is loading its lists.
  let listRead!: () => void;
  const listWasRead = new Promise<void>((resolve) => (listRead = resolve));
  let releaseList!: () => void;
  const listReleased = new Promise<void>((resolve) => (releaseList = resolve));
  let first = true;
  await page.route(/\/api\/chats\?archived=false(&limit=\d+)?$/, async (route) => {
    if (!first) return route.continue();
    first = false;
    const answer = await route.fetch();
    listRead();
    await listReleased;
    await route.fulfill({ response: answer });
  });
  const connected = realtimeConnected(page);
  await page.goto('/chat');
  await Promise.all([connected, listWasRead]);

  // Another device starts a chat: this page hears of it live...
  await createChat(session, { agentId: 'default-agent', title: 'Started elsewhere' });
  await expect(chatRow(page, 'Started elsewhere')).toBeVisible();

  // ...and the list answer, older than that event, must not take it away again.
  releaseList();
  await expect(sidebarAgent(page, 'Assistant')).toBeVisible();
  await expect(chatRow(page, 'Started elsewhere')).toBeVisible();
});
