import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { agentWebhookUrl, createAgent } from '../fixtures/api';
import { agentMessage, openChatRow, selectAgent, sendMessage } from '../fixtures/chat';
import { twoDevices } from '../fixtures/devices';

interface Received {
  path: string;
  headers: Record<string, string>;
  body: {
    event?: string;
    replyId?: string;
    score?: string | null;
    reason?: string | null;
    sessionId?: string;
  };
}

test('thumbs down with a reason: shown on both devices, and a signed feedback event reaches the opted-in agent', async ({
  browser,
}) => {
  let secret = '';
  const { a, b, close } = await twoDevices(browser, 'rating', async (s) => {
    const agent = await createAgent(s, {
      name: 'Rated',
      webhook: agentWebhookUrl('/echo'),
      signed: true,
      sendFeedback: true,
    });
    secret = agent.signingSecret ?? '';
  });
  try {
    const message = `rate this ${Date.now()}`;
    await selectAgent(a, 'Rated');
    await sendMessage(a, message);
    const replyOnA = agentMessage(a, `echo: ${message}`);
    await expect(replyOnA).toBeVisible();
    await openChatRow(b, 'Chat with Rated');
    const replyOnB = agentMessage(b, `echo: ${message}`);
    await expect(replyOnB).toBeVisible();

    await replyOnA.getByRole('button', { name: 'Dislike this response' }).click();
    const dialog = a.getByRole('dialog', { name: 'What was wrong with this response?' });
    await dialog.getByLabel('Reason (optional)').fill('It only echoed me');
    await dialog.getByLabel('Reason (optional)').press('Enter');
    await expect(dialog).toBeHidden();

    for (const reply of [replyOnA, replyOnB]) {
      await expect(reply.getByRole('button', { name: 'Dislike this response' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
    }

    // The agent was told, signed with its secret.
    let event: Received | undefined;
    await expect
      .poll(async () => {
        const res = await a.request.get(agentWebhookUrl('/requests'));
        const received = (await res.json()) as Received[];
        event = received.find((r) => r.body.event === 'feedback' && r.body.reason === 'It only echoed me');
        return event?.body.score;
      })
      .toBe('dislike');
    const { headers, body } = event!;
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    // The fixture keeps the parsed body; JSON.stringify gives back the bytes the app sent (same key order).
    const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${JSON.stringify(body)}`;
    expect(headers['webhook-signature']).toBe(
      `v1,${createHmac('sha256', key).update(signed).digest('base64')}`,
    );
  } finally {
    await close();
  }
});
