import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  agentWebhookUrl,
  apiHeaders,
  createAgent,
  createChat,
  registerViaApi,
  type ApiSession,
} from '../fixtures/api';
import { chatRow, chatTitle, sidebar, userMessage } from '../fixtures/chat';
import { axeFindings } from '../fixtures/axe';
import { chooseFromMenu, newAccount } from '../fixtures/ui';

/**
 * Issue 14, search and export: a word from an old message (far beyond the first page of the chat) is
 * found from the sidebar and opens the chat in place; a chat downloads as Markdown and as JSON.
 */

const LATER_TURNS = 120;

/** Transcript turns of a voice call: stored at once, no agent reply to wait for. */
async function voiceTurn(session: ApiSession, chatId: string, eventId: number, text: string) {
  const res = await session.request.post('/api/voice/transcripts', {
    headers: apiHeaders(session),
    data: { chatId, role: 'user', text, conversationId: 'e2e-search', eventId: String(eventId) },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function chatWithHistory(session: ApiSession, title: string, word: string) {
  const agent = await createAgent(session, { name: 'Harbour agent', webhook: agentWebhookUrl() });
  const chat = await createChat(session, { agentId: agent.id, title });
  await voiceTurn(session, chat.id, 0, `The lighthouse code word is ${word}, keep it safe`);
  for (let i = 1; i <= LATER_TURNS; i++) await voiceTurn(session, chat.id, i, `later turn number ${i}`);
  return chat;
}

test('search finds a word from an old message and opens the chat at it', async ({ page }) => {
  const session = await registerViaApi(page, newAccount('search'));
  const word = `marzipan${Date.now()}`;
  await chatWithHistory(session, 'Harbour notes', word);

  await page.goto('/chat');
  await expect(chatTitle(page)).toHaveText('Harbour notes');
  await expect(userMessage(page, `later turn number ${LATER_TURNS}`)).toBeVisible();
  const old = userMessage(page, `code word is ${word}`);
  await expect(old).toHaveCount(0);

  const box = sidebar(page).getByRole('searchbox', { name: 'Search chats' });
  await box.fill(word);
  await box.press('Enter');
  const results = sidebar(page).getByRole('region', { name: 'Search results' });
  const found = results.getByRole('button').filter({ hasText: 'Harbour notes' });
  await expect(found).toHaveCount(1);
  await expect(found.locator('mark')).toHaveText(word);
  expect(await axeFindings(page)).toEqual([]);

  // Keyboard: the result is a button.
  await found.focus();
  await page.keyboard.press('Enter');
  await expect(old).toBeInViewport();
  await expect(chatTitle(page)).toHaveText('Harbour notes');
});

test('a chat downloads as Markdown and as JSON from its row menu', async ({ page }) => {
  const session = await registerViaApi(page, newAccount('export'));
  const word = `nougat${Date.now()}`;
  await chatWithHistory(session, 'Harbour: "notes"', word);
  await page.goto('/chat');
  const row = chatRow(page, 'Harbour: "notes"');
  await expect(row).toBeVisible();

  const markdown = page.waitForEvent('download');
  await chooseFromMenu(page, row.getByRole('button', { name: 'Chat options' }), 'Export as Markdown');
  const md = await markdown;
  expect(md.suggestedFilename()).toBe('Harbour-notes.md');
  const text = await readFile(await md.path(), 'utf8');
  expect(text).toMatch(/^# Harbour: "notes"\n/);
  expect(text).toContain(`**You** · `);
  expect(text).toMatch(
    new RegExp(`UTC \\(voice\\)\\n\\nThe lighthouse code word is ${word}, keep it safe\\n`),
  );
  expect(text).toContain(`later turn number ${LATER_TURNS}\n`);

  const json = page.waitForEvent('download');
  await chooseFromMenu(page, row.getByRole('button', { name: 'Chat options' }), 'Export as JSON');
  const file = await json;
  expect(file.suggestedFilename()).toBe('Harbour-notes.json');
  const doc = JSON.parse(await readFile(await file.path(), 'utf8')) as {
    chat: { title: string };
    messages: Array<{ role: string; content: string; is_voice_message: boolean; created_at: string }>;
  };
  expect(doc.chat.title).toBe('Harbour: "notes"');
  expect(doc.messages).toHaveLength(LATER_TURNS + 1);
  expect(doc.messages[0]).toMatchObject({
    role: 'user',
    content: `The lighthouse code word is ${word}, keep it safe`,
    is_voice_message: true,
  });
});
