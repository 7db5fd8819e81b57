import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { agentWebhookUrl, apiHeaders, createChat, registerViaApi, type ApiSession } from '../fixtures/api';
import { chatRow, chatTitle, sendMessage, sidebar, userMessage } from '../fixtures/chat';
import { axeFindings } from '../fixtures/axe';
import { chooseFromMenu, newAccount } from '../fixtures/ui';
import { createVoiceAgent, uniqueVoiceAgentId } from '../fixtures/voice';

/**
 * Search and export: a word from an old message (far beyond the first page of the chat) is
 * found from the sidebar and opens the chat at it, with the page around it only (a window of history);
 * a chat downloads as Markdown and as JSON.
 */

const LATER_TURNS = 120;
/** Turns before the one with the word in the search test: the window holds older history too. */
const EARLIER_TURNS = 40;

/** A voice call into the chat, as the call button starts it: its transcript turns name it. */
async function startCall(session: ApiSession, agentId: string, chatId: string): Promise<string> {
  const res = await session.request.post('/api/voice/sessions', {
    headers: apiHeaders(session),
    data: { agentId, chatId },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { callId: string }).callId;
}

/** Transcript turns of a voice call: stored at once, no agent reply to wait for. */
async function voiceTurn(
  session: ApiSession,
  call: { chatId: string; callId: string },
  eventId: number,
  text: string,
) {
  const res = await session.request.post('/api/voice/transcripts', {
    headers: apiHeaders(session),
    data: { ...call, role: 'user', text, conversationId: 'e2e-search', eventId: String(eventId) },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function chatWithHistory(session: ApiSession, title: string, word: string, earlier = 0) {
  const agent = await createVoiceAgent(session, {
    name: 'Harbour agent',
    webhook: agentWebhookUrl(),
    elevenlabsAgentId: uniqueVoiceAgentId('e2e_search'),
  });
  const chat = await createChat(session, { agentId: agent.id, title });
  const call = { chatId: chat.id, callId: await startCall(session, agent.id, chat.id) };
  for (let i = 1; i <= earlier; i++) await voiceTurn(session, call, 1000 + i, `earlier turn number ${i}`);
  await voiceTurn(session, call, 0, `The lighthouse code word is ${word}, keep it safe`);
  for (let i = 1; i <= LATER_TURNS; i++) await voiceTurn(session, call, i, `later turn number ${i}`);
  return chat;
}

/** The cursors of every request for a page of messages from now on. */
function recordMessagePages(page: Page): Array<{ before: string | null; after: string | null }> {
  const pages: Array<{ before: string | null; after: string | null }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && /^\/api\/chats\/[^/]+\/messages$/.test(url.pathname))
      pages.push({ before: url.searchParams.get('before'), after: url.searchParams.get('after') });
  });
  return pages;
}

/** The scroller of the conversation (the virtualised message list). */
const messageScroller = (page: Page) =>
  page.getByTestId('virtuoso-scroller').filter({ has: page.getByTestId('user-message') });

test('search finds a word from an old message and opens the chat at it, by cursor', async ({ page }) => {
  const session = await registerViaApi(page, newAccount('search'));
  const word = `marzipan${Date.now()}`;
  await chatWithHistory(session, 'Harbour notes', word, EARLIER_TURNS);

  await page.goto('/chat');
  await expect(chatTitle(page)).toHaveText('Harbour notes');
  const newest = userMessage(page, `later turn number ${LATER_TURNS}`);
  await expect(newest).toBeVisible();
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

  // Keyboard: the result is a button. The chat opens at the message, marked, with its neighbours.
  const pages = recordMessagePages(page);
  await found.focus();
  await page.keyboard.press('Enter');
  await expect(old).toBeInViewport();
  await expect(page.locator('[data-highlighted]').filter({ has: old })).toBeVisible();
  await expect(chatTitle(page)).toHaveText('Harbour notes');
  await expect(userMessage(page, `earlier turn number ${EARLIER_TURNS}`)).toHaveCount(1);
  await expect(userMessage(page, /later turn number 1(?!\d)/)).toHaveCount(1);
  // Only the page around the message came: the newest is not loaded, nothing paged back from it.
  await expect(newest).toHaveCount(0);
  expect(pages).toHaveLength(2);
  const after = pages.find((p) => p.after)?.after;
  expect(after).toBeTruthy();
  expect(pages).toContainEqual({ before: String(BigInt(after!) + 1n), after: null });
  expect(await axeFindings(page)).toEqual([]);

  // Jump to latest: the newest page again, the chat live as before.
  const jump = page.getByRole('button', { name: 'Jump to latest' });
  await jump.click();
  await expect(newest).toBeInViewport();
  await expect(jump).toHaveCount(0);
  await expect(old).toHaveCount(0);

  // A message sent from a window shows after the newest one: the window is left for the latest page.
  await found.click();
  await expect(old).toBeInViewport();
  await expect(jump).toBeVisible();
  await sendMessage(page, 'Written from the old part');
  const sent = userMessage(page, 'Written from the old part');
  await expect(sent).toBeInViewport();
  await expect(newest).toHaveCount(1);
  await expect(jump).toHaveCount(0);

  // Again from the result, then down to the newest by scrolling: newer pages by cursor after the window.
  pages.length = 0;
  await found.click();
  await expect(old).toBeInViewport();
  await expect(sent).toHaveCount(0);
  await expect(async () => {
    await messageScroller(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(sent).toBeInViewport({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(jump).toHaveCount(0);
  await expect(newest).toHaveCount(1);
  expect(pages.length).toBeGreaterThan(2);
  expect(pages.every((p) => p.before !== null || p.after !== null)).toBe(true);
  expect(pages.filter((p) => p.before !== null)).toHaveLength(1);
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
