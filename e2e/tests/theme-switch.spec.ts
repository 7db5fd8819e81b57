import { expect, test, type Page } from '@playwright/test';
import { agentWebhookUrl, apiHeaders, createAgent, createChat, registerViaApi } from '../fixtures/api';
import { agentMessage, chatTitle, openChatRow } from '../fixtures/chat';
import { chooseFromMenu, newAccount } from '../fixtures/ui';

/**
 * Switching the theme (or the OS theme changing) reopened the first active chat, reloaded the
 * agents, both chat lists and the messages twice, and blanked the list meanwhile. A theme change
 * re-renders colours only.
 */

async function chooseTheme(page: Page, mode: 'Light' | 'Dark' | 'System') {
  await chooseFromMenu(page, page.getByRole('button', { name: 'Toggle theme' }), mode);
}

/** Counts, in the page, the animation frames where the sidebar lost a chat or the thread lost a message. */
async function watchForBlanks(page: Page, chatTitles: string[], message: string) {
  await page.evaluate(
    ({ titles, text }) => {
      const state = { blankFrames: 0, frames: 0, stop: false };
      (window as unknown as { __blanks: typeof state }).__blanks = state;
      const check = () => {
        if (state.stop) return;
        state.frames++;
        const sidebar = document.querySelector('nav[aria-label="Sidebar"]')?.textContent ?? '';
        const main = document.body.textContent ?? '';
        if (titles.some((t) => !sidebar.includes(t)) || !main.includes(text)) state.blankFrames++;
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    },
    { titles: chatTitles, text: message },
  );
}

test('a theme switch keeps the open chat and asks the server for nothing', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const session = await registerViaApi(page, newAccount('themeswitch', { fullName: 'Tess Witch' }));
  const agent = await createAgent(session, { name: 'Echo', webhook: agentWebhookUrl('/echo') });
  // Alpha is the older chat, so Beta is the first active chat, the one a reload would open.
  for (const title of ['Alpha', 'Beta']) {
    const chat = await createChat(session, { agentId: agent.id, title });
    const res = await page.request.post(`/api/chats/${chat.id}/messages`, {
      headers: apiHeaders(session),
      data: { content: `hello from ${title}` },
    });
    expect(res.status(), await res.text()).toBe(201);
  }

  await page.goto('/chat');
  await expect(chatTitle(page)).toHaveText('Beta');
  await openChatRow(page, 'Alpha');
  await expect(agentMessage(page, 'echo: hello from Alpha')).toBeVisible();

  const apiCalls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  await watchForBlanks(page, ['Alpha', 'Beta'], 'echo: hello from Alpha');

  await chooseTheme(page, 'Dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await chooseTheme(page, 'Light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await chooseTheme(page, 'System');
  // The operating system's theme changes while the app follows it.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  // What a remount or a reload would do takes a moment: give it the time to show.
  await page.waitForTimeout(1_500);

  const blanks = await page.evaluate(() => {
    const state = (window as unknown as { __blanks: { blankFrames: number; frames: number; stop: boolean } })
      .__blanks;
    state.stop = true;
    return state;
  });
  expect(blanks.frames).toBeGreaterThan(10);
  expect(blanks.blankFrames, 'frames where a chat row or the open thread was missing').toBe(0);
  expect(apiCalls, 'API requests during theme switches').toEqual([]);
  await expect(chatTitle(page)).toHaveText('Alpha');
  await expect(agentMessage(page, 'echo: hello from Alpha')).toBeVisible();
});
