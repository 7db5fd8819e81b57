import { expect, test, type APIRequestContext } from '@playwright/test';
import { agentWebhookUrl, createAgent, registerViaApi } from '../fixtures/api';
import {
  agentMessage,
  messageInput,
  openChatRow,
  selectAgent,
  sendMessage,
  sidebar,
  typingIndicator,
  userMessage,
} from '../fixtures/chat';
import { twoDevices } from '../fixtures/devices';
import { realtimeConnected } from '../fixtures/realtime';
import { dismissToasts, expectToast, newAccount } from '../fixtures/ui';

const REPLY_DEADLINE_RULE = 'The reply deadline must be a whole number of minutes from 1 to 60';

// Long-running agents: the webhook fixture answers `async:` messages with 202 Accepted and
// keeps their callbackUrl and token; /deliver makes it call back with `later: <message>`.

/** Resolves once the webhook fixture has received the message (and with it the callback token). */
async function receivedByAgent(request: APIRequestContext, message: string): Promise<void> {
  await expect
    .poll(async () => {
      const res = await request.get(agentWebhookUrl('/requests'));
      const bodies = (await res.json()) as Array<{ body: { message?: string; callbackToken?: string } }>;
      return bodies.some((r) => r.body.message === message && typeof r.body.callbackToken === 'string');
    })
    .toBe(true);
}

/** The agent calls back; the app's answer to that callback. */
async function deliver(request: APIRequestContext, message: string): Promise<number> {
  const res = await request.post(agentWebhookUrl(`/deliver?message=${encodeURIComponent(message)}`));
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { status: number }).status;
}

test('an agent that answers 202 keeps the typing indicator on every tab, across a reload, until it calls back', async ({
  browser,
}) => {
  const { a, b, session, close } = await twoDevices(browser, 'async', async (s) => {
    await createAgent(s, { name: 'Researcher', webhook: agentWebhookUrl('/echo') });
  });
  try {
    const message = `async: write the quarterly report ${Date.now()}`;
    await selectAgent(a, 'Researcher');
    await sendMessage(a, message);
    await receivedByAgent(session.request, message);

    // Accepted, not answered: both tabs show the agent at work and neither can send.
    await openChatRow(b, 'Chat with Researcher');
    for (const page of [a, b]) {
      await expect(userMessage(page, message)).toBeVisible();
      await expect(typingIndicator(page)).toBeVisible();
      await expect(messageInput(page)).toBeDisabled();
    }
    // The server, not the tab, knows the reply is still coming.
    const connected = realtimeConnected(a);
    await a.reload();
    await connected;
    await expect(userMessage(a, message)).toBeVisible();
    await expect(typingIndicator(a)).toBeVisible();

    expect(await deliver(session.request, message)).toBe(200);
    for (const page of [a, b]) {
      await expect(agentMessage(page, `later: ${message}`)).toHaveCount(1);
      await expect(typingIndicator(page)).toBeHidden();
      await expect(messageInput(page)).toBeEnabled();
    }

    // A second delivery with the same token is refused and shows nothing new.
    expect(await deliver(session.request, message)).toBe(409);
    await a.reload();
    await expect(agentMessage(a, `later: ${message}`)).toHaveCount(1);
  } finally {
    await close();
  }
});

test("an agent's reply deadline is set in Add Agent, refused out of range, and kept", async ({ page }) => {
  await registerViaApi(page, newAccount('deadline'));
  await page.goto('/chat');
  await sidebar(page).getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Agents' }).click();
  await settings.getByRole('button', { name: 'Add Agent' }).click();
  const add = page.getByRole('dialog', { name: 'Add Agent' });
  await add.getByLabel('Name', { exact: true }).fill('Researcher');
  await add.getByLabel('Webhook URL', { exact: true }).fill(agentWebhookUrl('/echo'));
  const deadline = add.getByLabel('Reply deadline (minutes)');
  await expect(deadline).toHaveValue('10');

  await deadline.fill('90');
  await add.getByRole('button', { name: 'Add Agent' }).click();
  await expect(add.getByText(REPLY_DEADLINE_RULE)).toBeVisible();
  await expect(add).toBeVisible();

  await deadline.fill('30');
  await add.getByRole('button', { name: 'Add Agent' }).click();
  await expectToast(page, 'Agent added');
  await dismissToasts(page);
  await expect(settings.getByLabel('Reply deadline (minutes)')).toHaveValue('30');

  // Kept by the server: a fresh page shows it too.
  await page.reload();
  await sidebar(page).getByRole('button', { name: 'Settings' }).click();
  await settings.getByRole('tab', { name: 'Agents' }).click();
  await settings.getByRole('list', { name: 'Agents' }).getByText('Researcher').click();
  await expect(settings.getByLabel('Reply deadline (minutes)')).toHaveValue('30');
});
