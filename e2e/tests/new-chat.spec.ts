import { expect, test, type Page } from '@playwright/test';
import { registerViaApi } from '../fixtures/api';
import { agentMessage, chatRow, chatTitle, sendMessage, sidebar } from '../fixtures/chat';
import { expectToast, newAccount } from '../fixtures/ui';

/**
 * New Chat saved an empty chat on every click, and they piled up as 'No messages yet' rows
 * that all read 'Chat with Assistant'. The chat that has no message yet is given back instead.
 */

async function clickNewChat(page: Page) {
  await sidebar(page).getByRole('button', { name: 'New Chat' }).click();
  await expectToast(page, 'New chat created');
  await expect(chatTitle(page)).toHaveText('Chat with Assistant');
}

test('New Chat reuses the chat that has no message yet', async ({ page }) => {
  await registerViaApi(page, newAccount('newchat', { fullName: 'Nev Chatham' }));
  await page.goto('/chat');
  await expect(sidebar(page).getByText('No active chats')).toBeVisible();

  for (let click = 0; click < 3; click++) await clickNewChat(page);
  const rows = chatRow(page, 'Chat with Assistant');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('No messages yet');

  // Once it has a message, New Chat starts another one, and that one is reused in turn.
  await sendMessage(page, 'hello');
  await expect(agentMessage(page, "Hello! I'm the Switchboard demo agent.")).toBeVisible();
  await clickNewChat(page);
  await clickNewChat(page);
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'No messages yet' })).toHaveCount(1);

  // The server kept the same two chats (not one empty chat per click).
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'No messages yet' })).toHaveCount(1);
});
