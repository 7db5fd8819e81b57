import { expect, test, type APIRequestContext } from '@playwright/test';
import { agentWebhookUrl, createAgent } from '../fixtures/api';
import {
  agentMessage,
  messageInput,
  openChatRow,
  selectAgent,
  sendMessage,
  typingIndicator,
  userMessage,
} from '../fixtures/chat';
import { twoDevices } from '../fixtures/devices';
import { realtimeConnected } from '../fixtures/realtime';

// Issue 14, long-running agents: the webhook fixture answers `async:` messages with 202 Accepted and
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
