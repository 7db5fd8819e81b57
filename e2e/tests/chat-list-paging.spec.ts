import { expect, test } from '@playwright/test';
import { agentWebhookUrl, apiHeaders, createAgent, createChat, registerViaApi } from '../fixtures/api';
import { chatRow, sidebar } from '../fixtures/chat';
import { realtimeConnected } from '../fixtures/realtime';
import { newAccount } from '../fixtures/ui';

/**
 * The sidebar's chat list at scale: the first page of 50 comes with the screen, the rest as
 * the list is scrolled; a live event about a chat not loaded yet moves it to the top, once.
 */
test('the chat list loads more as it is scrolled, and live events work on a partly loaded list', async ({
  page,
}) => {
  const session = await registerViaApi(page, newAccount('paging'));
  const agent = await createAgent(session, { name: 'Pager', webhook: agentWebhookUrl() });
  const title = (n: number) => `Paged chat ${String(n).padStart(3, '0')}`;
  const ids: string[] = [];
  // Oldest first: chat 065 is the newest, at the top.
  for (let n = 1; n <= 65; n += 1)
    ids.push((await createChat(session, { agentId: agent.id, title: title(n) })).id);

  await page.goto('/chat');
  await realtimeConnected(page);
  const active = sidebar(page).getByRole('list', { name: 'Active chats' }).getByRole('listitem');
  await expect(chatRow(page, title(65))).toBeVisible();
  await expect(active).toHaveCount(50);
  await expect(chatRow(page, title(16))).toHaveCount(1);
  await expect(chatRow(page, title(15))).toHaveCount(0);

  // A message in chat 005, not loaded yet: the chat comes to the top at once.
  const sent = await page.request.post(`/api/chats/${ids[4]}/messages`, {
    headers: apiHeaders(session),
    data: { content: 'bring me up' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await expect(active.first()).toContainText(title(5));
  await expect(active).toHaveCount(51);

  // Scrolling to the end of the list loads the rest, with no click.
  const loadMore = sidebar(page).getByRole('button', { name: 'Load more chats' });
  await loadMore.scrollIntoViewIfNeeded();
  await expect(chatRow(page, title(1))).toBeVisible();
  await expect(active).toHaveCount(65);
  await expect(chatRow(page, title(5))).toHaveCount(1);
  await expect(loadMore).toHaveCount(0);
  await expect(active.first()).toContainText(title(5));
  await expect(active.last()).toContainText(title(1));
});
