import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { STREAM_FIRST_PART, STREAM_REPLY } from '../fixtures/agent-webhook';
import { agentWebhookUrl, apiHeaders, createAgent, releaseSlowReply, type ApiSession } from '../fixtures/api';
import {
  agentMessage,
  messageInput,
  openChatRow,
  selectAgent,
  sendMessage,
  userMessage,
} from '../fixtures/chat';
import { twoDevices } from '../fixtures/devices';

interface Received {
  path: string;
  headers: Record<string, string>;
  body: {
    message?: string;
    sessionId?: string;
    messageId?: string;
    regenerate?: boolean;
    previousReplyId?: string | null;
    edited?: boolean;
    event?: string;
    replyId?: string;
    score?: string | null;
    reason?: string | null;
  };
}

async function received(page: Page): Promise<Received[]> {
  return (await (await page.request.get(agentWebhookUrl('/requests'))).json()) as Received[];
}

/** A stored agent message (not the streaming bubble). */
const storedReply = (page: Page, text: string) =>
  agentMessage(page, text).and(page.locator(':not([data-streaming])'));
const streamingBubble = (page: Page) => page.locator('[data-testid="agent-message"][data-streaming="true"]');

async function messagesOf(session: ApiSession, chatId: string) {
  const res = await session.request.get(`/api/chats/${chatId}/messages`, { headers: apiHeaders(session) });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { messages: Array<{ id: string; senderType: string; content: string }> })
    .messages;
}

async function chatIdOf(session: ApiSession, title: string): Promise<string> {
  const res = await session.request.get('/api/chats', { headers: apiHeaders(session) });
  const { chats } = (await res.json()) as { chats: Array<{ id: string; title: string }> };
  return chats.find((c) => c.title === title)!.id;
}

test('regenerate after a failing webhook, browse versions, edit live on a second device, rate the new reply', async ({
  browser,
}) => {
  let agentId = '';
  let secret = '';
  const { a, b, session, close } = await twoDevices(browser, 'regen', async (s) => {
    // The agent's webhook fails at first (a 404: not retried).
    const agent = await createAgent(s, {
      name: 'Flaky',
      webhook: agentWebhookUrl('/status/404'),
      signed: true,
      sendFeedback: true,
    });
    agentId = agent.id;
    secret = agent.signingSecret ?? '';
  });
  try {
    const first = `what is new ${Date.now()}`;
    await selectAgent(a, 'Flaky');
    await sendMessage(a, first);
    const failed = a.getByTestId('no-reply');
    await expect(failed).toContainText('The agent did not reply.');

    // The webhook is put right; Regenerate asks again with the same message and session.
    const fixed = await session.request.patch(`/api/agents/${agentId}`, {
      headers: apiHeaders(session),
      data: { webhook: agentWebhookUrl('/echo') },
    });
    expect(fixed.ok(), await fixed.text()).toBe(true);
    await failed.getByRole('button', { name: 'Regenerate' }).click();
    await expect(storedReply(a, `echo: ${first}`)).toBeVisible();
    await expect(messageInput(a)).toBeEnabled();
    const chatId = await chatIdOf(session, 'Chat with Flaky');
    const regenerated = (await received(a)).filter((r) => r.body.message === first);
    expect(regenerated.at(-1)?.body).toMatchObject({
      regenerate: true,
      sessionId: chatId,
      previousReplyId: null,
    });

    // The second device opens the chat, then sees the edit and the new reply live.
    await openChatRow(b, 'Chat with Flaky');
    await expect(storedReply(b, `echo: ${first}`)).toBeVisible();

    const edited = `what is newer ${Date.now()}`;
    const mine = userMessage(a, first);
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit' }).click();
    const field = a.getByRole('textbox', { name: 'Edit message' });
    await field.fill(edited);
    await field.press('Enter');
    await expect(storedReply(a, `echo: ${edited}`)).toBeVisible();
    await expect(userMessage(b, edited)).toBeVisible();
    await expect(storedReply(b, `echo: ${edited}`)).toBeVisible();
    await expect(userMessage(b, first)).toHaveCount(0);
    await expect(storedReply(b, `echo: ${first}`)).toHaveCount(0);
    const afterEdit = (await received(a)).filter((r) => r.body.message === edited);
    expect(afterEdit.at(-1)?.body).toMatchObject({ sessionId: chatId, edited: true });

    // Versions: the reply's 2 / 2, back to 1 / 2 (the first answer), and forth again.
    const reply = agentMessage(a, /echo: what is/);
    await expect(reply.getByText('2 / 2')).toBeVisible();
    await reply.getByRole('button', { name: 'Previous version' }).click();
    await expect(reply.getByText('1 / 2')).toBeVisible();
    await expect(reply).toContainText(`echo: ${first}`);
    await reply.getByRole('button', { name: 'Next version' }).click();
    await expect(reply.getByText('2 / 2')).toBeVisible();
    await expect(reply).toContainText(`echo: ${edited}`);
    // The message's own history: its first text.
    const message = a.getByTestId('user-message').last();
    await expect(message).toContainText(edited);
    await message.getByRole('button', { name: 'Previous version' }).click();
    await expect(message).toContainText(first);
    await expect(message.getByText('1 / 2')).toBeVisible();

    // A thumbs down with a reason on the new reply reaches the opted-in agent, signed.
    const latest = storedReply(a, `echo: ${edited}`);
    await latest.getByRole('button', { name: 'Dislike this response' }).click();
    const dialog = a.getByRole('dialog', { name: 'What was wrong with this response?' });
    await dialog.getByLabel('Reason (optional)').fill('Still only echoes');
    await dialog.getByLabel('Reason (optional)').press('Enter');
    const replyId = (await messagesOf(session, chatId)).at(-1)!.id;
    let event: Received | undefined;
    await expect
      .poll(async () => {
        event = (await received(a)).find((r) => r.body.event === 'feedback' && r.body.replyId === replyId);
        return event?.body.reason;
      })
      .toBe('Still only echoes');
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const signed = `${event!.headers['webhook-id']}.${event!.headers['webhook-timestamp']}.${JSON.stringify(event!.body)}`;
    expect(event!.headers['webhook-signature']).toBe(
      `v1,${createHmac('sha256', key).update(signed).digest('base64')}`,
    );
  } finally {
    await close();
  }
});

test('regenerate is not offered while a slow reply is pending, and the API answers 409', async ({
  browser,
}) => {
  const { a, session, close } = await twoDevices(browser, 'regenbusy', async (s) => {
    await createAgent(s, { name: 'Slow', webhook: agentWebhookUrl('/slow?ms=40000') });
  });
  try {
    const message = `take your time ${Date.now()}`;
    await selectAgent(a, 'Slow');
    await sendMessage(a, message);
    await releaseSlowReply(session.request, message);
    const reply = storedReply(a, `slow: ${message}`);
    await expect(reply).toBeVisible();
    await reply.getByRole('button', { name: 'Regenerate' }).click();

    // The reply is asked for again, held by the agent: nothing offers another one meanwhile.
    await expect(a.getByRole('status', { name: 'Agent is typing' })).toBeVisible();
    await expect(a.getByRole('button', { name: 'Regenerate' })).toHaveCount(0);
    await expect(a.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await expect(messageInput(a)).toBeDisabled();
    const chatId = await chatIdOf(session, 'Chat with Slow');
    const [user] = await messagesOf(session, chatId);
    const refused = await session.request.post(`/api/messages/${user.id}/regenerate`, {
      headers: apiHeaders(session),
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'The agent is still answering this chat: wait for its reply before asking for another one.',
    );

    await releaseSlowReply(session.request, message);
    await expect(reply.getByText('2 / 2')).toBeVisible();
    await expect(messageInput(a)).toBeEnabled();
    await expect(a.getByRole('button', { name: 'Regenerate' })).toHaveCount(1);
  } finally {
    await close();
  }
});

test('a streaming agent regenerates the same way: streamed live, then stored as version 2', async ({
  browser,
}) => {
  const { a, b, session, close } = await twoDevices(browser, 'regenstream', async (s) => {
    await createAgent(s, { name: 'Streamer', webhook: agentWebhookUrl('/echo?ms=40000') });
  });
  try {
    const message = `stream: once more ${Date.now()}`;
    await selectAgent(a, 'Streamer');
    await sendMessage(a, message);
    await releaseSlowReply(session.request, message);
    await expect(storedReply(a, STREAM_REPLY)).toHaveCount(1);
    await openChatRow(b, 'Chat with Streamer');

    await storedReply(a, STREAM_REPLY).getByRole('button', { name: 'Regenerate' }).click();
    // Both devices drop the old reply and watch the new one stream in, with the input disabled.
    for (const page of [a, b]) {
      await expect(streamingBubble(page)).toContainText(STREAM_FIRST_PART.join('').trim());
      await expect(storedReply(page, STREAM_REPLY)).toHaveCount(0);
      await expect(messageInput(page)).toBeDisabled();
    }
    await releaseSlowReply(session.request, message);
    for (const page of [a, b]) {
      await expect(storedReply(page, STREAM_REPLY)).toHaveCount(1);
      await expect(storedReply(page, STREAM_REPLY).getByText('2 / 2')).toBeVisible();
      await expect(messageInput(page)).toBeEnabled();
    }
  } finally {
    await close();
  }
});
