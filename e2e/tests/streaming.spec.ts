import { expect, test, type Page } from '@playwright/test';
import { STREAM_FIRST_PART, STREAM_REPLY } from '../fixtures/agent-webhook';
import { agentWebhookUrl, createAgent, releaseSlowReply } from '../fixtures/api';
import { agentMessage, messageInput, openChatRow, selectAgent, sendMessage } from '../fixtures/chat';
import { twoDevices } from '../fixtures/devices';
import { realtimeConnected } from '../fixtures/realtime';

// An agent that streams (n8n NDJSON) — the webhook fixture answers `stream:` messages with
// STREAM_FIRST_PART at once and holds the rest until the test releases it.
const FIRST_PART = STREAM_FIRST_PART.join('').trim();

/** The reply as it streams in: the growing assistant bubble (not yet a stored message). */
const streamingBubble = (page: Page) => page.locator('[data-testid="agent-message"][data-streaming="true"]');
/** A stored agent message (not the streaming bubble). */
const storedReply = (page: Page, text: string) =>
  agentMessage(page, text).and(page.locator(':not([data-streaming])'));

test('a streamed reply grows in the open chat and in a second tab, then is stored once', async ({
  browser,
}) => {
  const { a, b, session, close } = await twoDevices(browser, 'stream', async (s) => {
    await createAgent(s, { name: 'Streamer', webhook: agentWebhookUrl('/echo?ms=40000') });
  });
  try {
    const message = `stream: tell me a story ${Date.now()}`;
    await selectAgent(a, 'Streamer');
    await sendMessage(a, message);

    // The typing indicator turns into the reply's bubble with the text so far.
    await expect(streamingBubble(a)).toContainText(FIRST_PART);
    await expect(a.getByRole('button', { name: 'Stop reply' })).toBeVisible();
    // The second tab opens the chat mid-stream: it shows the text so far too.
    await openChatRow(b, 'Chat with Streamer');
    await expect(streamingBubble(b)).toContainText(FIRST_PART);

    await releaseSlowReply(session.request, message);
    for (const page of [a, b]) {
      await expect(storedReply(page, STREAM_REPLY)).toHaveCount(1);
      await expect(streamingBubble(page)).toHaveCount(0);
      await expect(messageInput(page)).toBeEnabled();
      await expect(page.getByRole('button', { name: 'Stop reply' })).toHaveCount(0);
    }
  } finally {
    await close();
  }
});

test('a reload mid-stream shows the text so far, then the rest', async ({ browser }) => {
  const { a, session, close } = await twoDevices(browser, 'streamreload', async (s) => {
    await createAgent(s, { name: 'Streamer', webhook: agentWebhookUrl('/echo?ms=40000') });
  });
  try {
    const message = `stream: survive a reload ${Date.now()}`;
    await selectAgent(a, 'Streamer');
    await sendMessage(a, message);
    await expect(streamingBubble(a)).toContainText(FIRST_PART);

    const connected = realtimeConnected(a);
    await a.reload();
    await connected;
    await expect(streamingBubble(a)).toContainText(FIRST_PART);

    await releaseSlowReply(session.request, message);
    await expect(storedReply(a, STREAM_REPLY)).toHaveCount(1);
    await expect(streamingBubble(a)).toHaveCount(0);
  } finally {
    await close();
  }
});

test('Stop keeps the text so far, marked Stopped, in every tab', async ({ browser }) => {
  const { a, b, close } = await twoDevices(browser, 'streamstop', async (s) => {
    await createAgent(s, { name: 'Streamer', webhook: agentWebhookUrl('/echo?ms=40000') });
  });
  try {
    await selectAgent(a, 'Streamer');
    await sendMessage(a, `stream: stop me ${Date.now()}`);
    await expect(streamingBubble(a)).toContainText(FIRST_PART);
    await openChatRow(b, 'Chat with Streamer');
    await expect(streamingBubble(b)).toContainText(FIRST_PART);

    await a.getByRole('button', { name: 'Stop reply' }).click();
    for (const page of [a, b]) {
      const stopped = storedReply(page, FIRST_PART);
      await expect(stopped).toHaveCount(1);
      await expect(stopped.getByTestId('reply-interrupted')).toHaveText('Stopped');
      await expect(streamingBubble(page)).toHaveCount(0);
      await expect(messageInput(page)).toBeEnabled();
    }
  } finally {
    await close();
  }
});
