import { expect, test } from '@playwright/test';
import { agentWebhookUrl, createAgent, createChat, releaseSlowReply } from '../fixtures/api';
import {
  agentMessage,
  chatRow,
  chatRowAction,
  chatTitle,
  messageInput,
  openChatRow,
  selectAgent,
  sendMessage,
  showChats,
  sidebar,
  typingIndicator,
  userMessage,
  welcomeHeading,
} from '../fixtures/chat';
import { twoDevices } from '../fixtures/devices';
import { expectToast } from '../fixtures/ui';

test('two devices of one user see each other’s messages and the typing indicator live', async ({
  browser,
}) => {
  const { a, b, session, close } = await twoDevices(browser, 'live', async (s) => {
    await createAgent(s, { name: 'Slowpoke', webhook: agentWebhookUrl('/slow?ms=30000') });
  });
  try {
    // A starts a chat (this first reply is let through at once).
    const first = `Good morning ${Date.now()}`;
    await releaseSlowReply(session.request, first);
    await selectAgent(a, 'Slowpoke');
    await sendMessage(a, first);
    await expect(agentMessage(a, `slow: ${first}`)).toBeVisible();

    // B sees the new chat appear in its list, with no reload, and opens it.
    await openChatRow(b, 'Chat with Slowpoke');
    await expect(chatTitle(b)).toHaveText('Chat with Slowpoke');
    await expect(userMessage(b, first)).toBeVisible();
    await expect(agentMessage(b, `slow: ${first}`)).toBeVisible();

    // A asks again; the agent takes its time: B sees the question and the typing indicator live.
    const second = `Are you still there ${Date.now()}?`;
    await sendMessage(a, second);
    await expect(userMessage(b, second)).toBeVisible();
    await expect(typingIndicator(b)).toBeVisible();
    await expect(typingIndicator(a)).toBeVisible();
    // While the agent types, neither device can send.
    await expect(messageInput(a)).toBeDisabled();
    await expect(messageInput(b)).toBeDisabled();

    await releaseSlowReply(session.request, second);
    for (const page of [a, b]) {
      await expect(agentMessage(page, `slow: ${second}`)).toBeVisible();
      await expect(typingIndicator(page)).toBeHidden();
      await expect(messageInput(page)).toBeEnabled();
    }

    // And the other way round: B writes, A sees it.
    const third = `Written on the other device ${Date.now()}`;
    await releaseSlowReply(session.request, third);
    await sendMessage(b, third);
    await expect(userMessage(a, third)).toBeVisible();
    await expect(agentMessage(a, `slow: ${third}`)).toBeVisible();

    // Each message shows once on each device (events and answers are merged by id).
    for (const page of [a, b]) {
      await expect(userMessage(page, second)).toHaveCount(1);
      await expect(agentMessage(page, `slow: ${third}`)).toHaveCount(1);
    }
  } finally {
    await close();
  }
});

test('rename, archive, restore and delete on one device show on the other live', async ({ browser }) => {
  const { a, b, close } = await twoDevices(browser, 'sync', async (s) => {
    for (const title of ['Trip plans', 'Budget review'])
      await createChat(s, { agentId: 'default-agent', title });
  });
  try {
    for (const page of [a, b]) {
      await expect(chatRow(page, 'Budget review')).toContainText('No messages yet');
      await expect(chatRow(page, 'Trip plans')).toBeVisible();
    }

    // Rename on A.
    await chatRowAction(a, 'Budget review', 'Rename');
    const dialog = a.getByRole('dialog', { name: 'Rename Chat' });
    await dialog.getByLabel('Title').fill('Budget 2027');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(chatRow(a, 'Budget 2027')).toBeVisible();
    await expect(chatRow(b, 'Budget 2027')).toBeVisible();
    await expect(chatRow(b, 'Budget review')).toHaveCount(0);

    // Archive on A: it leaves B's Active tab and shows on its Archived tab.
    await chatRowAction(a, 'Trip plans', 'Archive');
    await expectToast(a, 'Chat archived');
    await expect(chatRow(b, 'Trip plans')).toHaveCount(0);
    await showChats(b, 'Archived');
    await expect(chatRow(b, 'Trip plans', 'Archived')).toBeVisible();

    // Restore on B: back on A's Active tab.
    await chatRowAction(b, 'Trip plans', 'Restore', 'Archived');
    await expect(sidebar(b).getByText('No archived chats')).toBeVisible();
    await expect(chatRow(a, 'Trip plans')).toBeVisible();

    // Delete both on A: B's lists empty out.
    await chatRowAction(a, 'Budget 2027', 'Delete');
    await expectToast(a, 'Chat deleted');
    await chatRowAction(a, 'Trip plans', 'Archive');
    await expectToast(a, 'Chat archived');
    await expect(sidebar(a).getByText('No active chats')).toBeVisible();
    await showChats(b, 'Active');
    await expect(sidebar(b).getByText('No active chats')).toBeVisible();
    await showChats(a, 'Archived');
    await chatRowAction(a, 'Trip plans', 'Delete', 'Archived');
    await expectToast(a, 'Chat deleted');
    await expect(sidebar(a).getByText('No archived chats')).toBeVisible();
    await showChats(b, 'Archived');
    await expect(sidebar(b).getByText('No archived chats')).toBeVisible();

    // With no chats left, both devices are back on an agent's welcome view.
    for (const page of [a, b]) await expect(welcomeHeading(page, 'Assistant')).toBeVisible();
  } finally {
    await close();
  }
});

test('a chat open on one device, archived then deleted on the other, closes there too', async ({
  browser,
}) => {
  const { a, b, close } = await twoDevices(browser, 'open');
  try {
    await sendMessage(a, 'hello');
    await expect(agentMessage(a, "Hello! I'm the Switchboard demo agent.")).toBeVisible();
    await openChatRow(b, 'Chat with Assistant');
    await expect(agentMessage(b, "Hello! I'm the Switchboard demo agent.")).toBeVisible();

    // Archived on A: A leaves the chat; B, still reading it, can no longer write to it.
    await chatRowAction(a, 'Chat with Assistant', 'Archive');
    await expectToast(a, 'Chat archived');
    await expect(chatTitle(a)).toHaveText('New Chat');
    await expect(b.getByText('This chat is archived. Restore it to send messages.')).toBeVisible();
    await expect(messageInput(b)).toHaveCount(0);

    // Deleted on A: gone from B's screen as well.
    await showChats(a, 'Archived');
    await chatRowAction(a, 'Chat with Assistant', 'Delete', 'Archived');
    await expectToast(a, 'Chat deleted');
    await expect(userMessage(b, 'hello')).toHaveCount(0);
    await expect(chatTitle(b)).toHaveText('New Chat');
    await showChats(b, 'Archived');
    await expect(sidebar(b).getByText('No archived chats')).toBeVisible();
  } finally {
    await close();
  }
});
